// iapctl Transaction Manager: the page `iapctl serve` answers at GET /.
//
// No framework and nothing fetched from elsewhere: this file, app.css and index.html are embedded
// in the iapctl binary. The contract with the server is docs/ui.md:
//   GET  /ui/api/overview                   clock, settings, counts, catalog, last event seq
//   GET  /ui/api/transactions?offset&limit  one page, newest first, with the total (filters)
//   GET  /ui/api/transactions/{id}          every field, the decoded JWS, receipt entry, events
//   GET  /ui/api/subscriptions, /downloads
//   GET  /ui/api/events?since=N             server-sent events, one per store event (id = seq)
//   GET  /ui/api/actions                    the CLI commands this server lets the page run
//   POST /ui/api/actions                    {"arguments": [...]}: one command line, run as the CLI
// Only the rows in view are rendered; pages of BLOCK rows are fetched as they scroll into view.

const ROW_HEIGHT = 24;
const BLOCK = 100;
const OVERSCAN = 8;
const EVENT_LOG_SIZE = 500;
const HISTORY_EVENTS = 200;
const OWNED_STATES = new Set(['purchased', 'restored']);
const FINISHABLE_STATES = new Set(['purchased', 'restored', 'failed']);

const token = document.querySelector('meta[name="iapctl-token"]').content;
const $ = (id) => document.getElementById(id);

const app = {
  overview: null,
  offered: new Map(), // CLI command path ("refund", "clock advance") -> usage
  view: 'transactions',
  filters: { product: '', state: '', account: '', member: '' },
  filterKey: '',
  total: 0,
  totalGen: -1,
  gen: 0,
  blocks: new Map(), // block index -> {gen, rows}
  inflight: new Map(), // block index -> {gen, key, promise}
  selectedId: null,
  selectedIndex: -1,
  pendingIndexSelect: -1,
  detail: null,
  detailRequest: 0,
  lastSeq: 0,
  events: [],
  dirty: { subscriptions: true, downloads: true, events: true },
  subscriptions: [],
  downloads: [],
  openSections: new Map(),
};

// ---------------------------------------------------------------------------------------------
// Small helpers

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** "2026-01-01T00:00:01Z" -> "2026-01-01 00:00:01" (the clock is UTC; the title keeps RFC 3339). */
function shortDate(text) {
  if (!text) return '—';
  return text.replace('T', ' ').replace(/(\.\d+)?Z$/, '');
}

function dateCell(text) {
  return el('time', { class: 'mono', datetime: text || undefined, title: text || undefined, text: shortDate(text) });
}

function price(t) {
  if (t.price === null || t.price === undefined) return '—';
  return `${t.price} ${t.currency || ''}`.trim();
}

function shortUser(id) {
  if (!id) return '—';
  return /^[0-9a-f]{64}$/.test(id) ? `${id.slice(0, 12)}…` : id;
}

function badge(name, extraClass = '') {
  return el('span', { class: `badge s-${name} ${extraClass}`.trim(), text: name });
}

function isRefunded(t) {
  return Boolean(t.revocationDate);
}

function query(params) {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== '' && value !== null && value !== undefined) q.set(key, value);
  return q.toString();
}

function plural(n, word) {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

// ---------------------------------------------------------------------------------------------
// Talking to the server

async function getJSON(path) {
  const response = await fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = new Error((body && body.errorMessage) || `${response.status} ${response.statusText} for ${path}`);
    error.status = response.status;
    throw error;
  }
  return body;
}

function offers(command) {
  return app.offered.has(command);
}

/**
 * Runs one CLI command line through POST /ui/api/actions, as `iapctl ARGS... --json` would, and
 * reports its exit code and one-line error. The token proves the request comes from this page.
 */
async function runAction(args, { confirm } = {}) {
  if (confirm && !(await confirmDialog(confirm, args))) return null;
  const line = `iapctl ${args.map(shellWord).join(' ')}`;
  setBusy(true);
  showStatus(`${line} …`);
  try {
    const response = await fetch('/ui/api/actions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-IAPCTL-Token': token, Accept: 'application/json' },
      body: JSON.stringify({ arguments: args }),
      cache: 'no-store',
    });
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    if (!response.ok) {
      showError(`${line}: refused (${response.status}): ${(body && body.errorMessage) || response.statusText}`);
      return null;
    }
    reportAction(line, body);
    scheduleRefresh();
    return body;
  } catch (error) {
    showError(`${line}: ${error.message}`);
    return null;
  } finally {
    setBusy(false);
  }
}

function shellWord(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function describeOutput(output) {
  if (!output || typeof output !== 'object') return '';
  const one = (t) => `${t.transactionIdentifier} ${t.productIdentifier} (${t.state}${t.revocationDate ? ', refunded' : ''})`;
  if (Array.isArray(output)) {
    const txs = output.filter((t) => t && t.transactionIdentifier);
    if (txs.length === 1) return one(txs[0]);
    if (txs.length > 1) return plural(txs.length, 'transaction');
    return '';
  }
  if (output.transactionIdentifier) return one(output);
  if (output.clock) return `clock ${shortDate(output.clock)}`;
  return '';
}

function reportAction(line, result) {
  const what = describeOutput(result.output);
  const warnings = (result.warnings || []).map((w) => `warning: ${w}`).join(' ');
  if (result.exitCode === 0) {
    showStatus(`${line}: done${what ? ` — ${what}` : ''}${warnings ? ` (${warnings})` : ''}`);
    showError('');
  } else if (result.exitCode === 5) {
    showStatus(`${line}: pending (exit 5)${what ? ` — ${what}` : ''}`);
    showError('');
  } else {
    showStatus(`${line}: exit ${result.exitCode}${what ? ` — ${what}` : ''}`);
    showError(`exit ${result.exitCode}: ${result.error || 'the command failed'}`);
  }
}

function showStatus(text) {
  $('status').textContent = text;
}

function showError(text) {
  $('error').textContent = text;
  $('error').title = text;
}

function setBusy(busy) {
  document.body.dataset.busy = busy ? 'true' : 'false';
}

// ---------------------------------------------------------------------------------------------
// The confirmation dialog: Enter confirms, Escape cancels.

function confirmDialog(text, args) {
  const dialog = $('confirm');
  $('confirm-text').textContent = text;
  $('confirm-command').textContent = `iapctl ${args.map(shellWord).join(' ')}`;
  const opener = document.activeElement;
  return new Promise((resolve) => {
    dialog.returnValue = 'cancel';
    dialog.addEventListener(
      'close',
      () => {
        if (opener && opener.isConnected) opener.focus();
        resolve(dialog.returnValue === 'ok');
      },
      { once: true },
    );
    dialog.showModal();
    $('confirm-ok').focus();
  });
}

// ---------------------------------------------------------------------------------------------
// Views

function showView(name) {
  app.view = name;
  for (const button of document.querySelectorAll('.sidebar [data-view]')) {
    if (button.dataset.view === name) button.setAttribute('aria-current', 'page');
    else button.removeAttribute('aria-current');
  }
  for (const section of document.querySelectorAll('main .view')) section.hidden = section.id !== `view-${name}`;
  if (name === 'transactions') renderRows();
  if (name === 'subscriptions' && app.dirty.subscriptions) loadSubscriptions();
  if (name === 'downloads' && app.dirty.downloads) loadDownloads();
  if (name === 'events' && app.dirty.events) renderEvents();
}

// ---------------------------------------------------------------------------------------------
// Overview: clock, counts, settings, catalog

async function loadOverview() {
  const overview = await getJSON('/ui/api/overview');
  const first = app.overview === null;
  app.overview = overview;
  if (first) app.lastSeq = overview.lastEventSeq;
  renderOverview(first);
  return overview;
}

function renderOverview(first) {
  const o = app.overview;
  $('store-name').textContent = o.store;
  $('store-name').title = `The store directory: ${o.store}`;
  $('clock').textContent = shortDate(o.clock);
  $('clock').dateTime = o.clock;
  $('clock').title = `${o.clock} (UTC, the store's simulated clock)`;
  $('clock-next').textContent = o.nextDueDate ? `next due ${shortDate(o.nextDueDate)}` : '';
  $('count-transactions').textContent = o.counts.transactions.toLocaleString('en-US');
  $('count-subscriptions').textContent = String(o.counts.subscriptions);
  $('count-downloads').textContent = String(o.counts.downloads);
  $('count-products').textContent = String(o.products.length);
  $('count-events').textContent = o.lastEventSeq.toLocaleString('en-US');
  $('fact-bundle').textContent = o.bundleId;
  $('fact-version').textContent = o.appVersion;
  const storefront = o.settings.find((s) => s.key === 'storefront');
  $('fact-storefront').textContent = storefront ? storefront.value : '—';
  $('fact-unfinished').textContent = String(o.counts.unfinished);
  if (first) {
    fillSelect($('f-product'), o.products.map((p) => [p.productIdentifier, p.productIdentifier]));
    fillSelect($('f-state'), o.states.map((s) => [s, s]));
  }
  // Family Sharing: the member filter shows a member's transactions ('iapctl dump --member NAME');
  // a member who left is no longer offered, and the list goes back to the account's.
  const members = o.members || [];
  $('f-member-label').hidden = members.length === 0;
  fillSelect($('f-member'), members.map((m) => [m, m]));
  if ($('f-member').value !== app.filters.member) applyFilters();
  renderFamily(members);
  fillSelect(
    $('pi-product'),
    o.products.filter((p) => p.type === 'autoRenewable').map((p) => [p.productIdentifier, `${p.productIdentifier} (${p.localizedPrice})`]),
  );
  renderProducts();
  renderSettings();
}

/** The sidebar's family: each member with Remove (iapctl family remove NAME), asked first. */
function renderFamily(members) {
  const list = $('family-members');
  const focused = document.activeElement && list.contains(document.activeElement) ? document.activeElement.dataset.member : null;
  const canRemove = offers('family remove');
  list.replaceChildren(
    ...members.map((name) =>
      el(
        'li',
        { 'data-member': name },
        el('span', { class: 'mono', text: name }),
        canRemove
          ? el('button', {
              type: 'button',
              'data-command': 'family remove',
              'data-member': name,
              'aria-label': `Remove ${name} from the family`,
              text: 'Remove…',
              onclick: () =>
                runAction(['family', 'remove', name], {
                  confirm: `Remove ${name} from the family? What ${name} has through the family is revoked (REVOKE, FAMILY_REVOKE).`,
                }),
            })
          : null,
      ),
    ),
  );
  $('family-none').hidden = members.length !== 0;
  $('family').hidden = members.length === 0 && !offers('family add');
  if (focused) {
    const again = list.querySelector(`button[data-member="${CSS.escape(focused)}"]`);
    (again || $('family-name')).focus();
  }
}

function fillSelect(select, options) {
  const keep = select.value;
  while (select.options.length > 1) select.remove(1);
  for (const [value, label] of options) select.add(new Option(label, value));
  select.value = options.some(([value]) => value === keep) ? keep : '';
}

function renderProducts() {
  const body = $('products').tBodies[0];
  const products = app.overview.products;
  const canBuy = offers('promote');
  body.replaceChildren(
    ...products.map((p) =>
      el(
        'tr',
        {},
        el('td', { class: 'mono', text: p.productIdentifier }),
        el('td', { text: p.type }),
        el('td', { text: p.localizedTitle }),
        el('td', { class: 'num', text: p.localizedPrice }),
        el('td', { class: 'mono', text: p.subscriptionPeriod || '—' }),
        el('td', { class: 'mono', text: p.subscriptionGroupIdentifier || '—' }),
        el(
          'td',
          {},
          canBuy
            ? el('button', {
                type: 'button',
                'aria-label': `Buy ${p.productIdentifier} from the App Store`,
                text: 'Buy',
                onclick: () => {
                  const account = $('buy-account').value.trim();
                  runAction(['promote', p.productIdentifier, ...(account ? ['--account', account] : [])]);
                },
              })
            : null,
        ),
      ),
    ),
  );
}

/** The fixed values a setting takes, read from its help ("true or false: ...", "accept, defer or decline: ..."). */
function settingChoices(help) {
  const head = help.split(':')[0];
  const match = /^([\w-]+(?:, [\w-]+)*),? or ([\w-]+)$/.exec(head);
  if (!match) return null;
  return [...match[1].split(', '), match[2]];
}

/** Settings the page may not change: `downloader` is a shell command, and the page never runs programs. */
const READ_ONLY_SETTINGS = new Set(['downloader']);

function renderSettings() {
  const body = $('settings').tBodies[0];
  const editable = offers('config set');
  const focusedKey = document.activeElement && document.activeElement.dataset.setting;
  body.replaceChildren(
    ...app.overview.settings.map((s) => {
      const id = `setting-${s.key}`;
      let control;
      const choices = settingChoices(s.help);
      if (!editable || READ_ONLY_SETTINGS.has(s.key)) {
        control = el('span', { class: 'mono', id, text: s.value, title: READ_ONLY_SETTINGS.has(s.key) ? 'Set it with the CLI: iapctl config set' : undefined });
      } else if (choices && choices.includes(s.value)) {
        control = el('select', {
          id,
          'data-setting': s.key,
          'aria-label': s.key,
          onchange: (e) => runAction(['config', 'set', s.key, e.target.value]),
        });
        for (const c of choices) control.add(new Option(c, c, false, c === s.value));
      } else {
        const input = el('input', { id, 'data-setting': s.key, 'aria-label': s.key, value: s.value, size: 16, spellcheck: 'false', autocomplete: 'off' });
        control = el(
          'form',
          {
            class: 'row-actions',
            onsubmit: (e) => {
              e.preventDefault();
              runAction(['config', 'set', s.key, input.value.trim()]);
            },
          },
          input,
          el('button', { type: 'submit', 'aria-label': `Set ${s.key}`, text: 'Set' }),
        );
      }
      return el('tr', {}, el('td', {}, el('label', { for: id, class: 'mono', text: s.key })), el('td', {}, control), el('td', { class: 'wrap', text: s.help }));
    }),
  );
  if (focusedKey) {
    const again = body.querySelector(`[data-setting="${CSS.escape(focusedKey)}"]`);
    if (again) again.focus();
  }
}

// ---------------------------------------------------------------------------------------------
// The transaction grid: a spacer as tall as every row, and only the rows in view rendered.

const grid = $('tx-grid');
const scroller = $('tx-scroller');
const spacer = $('tx-spacer');
const rowsLayer = $('tx-rows');

function setTotal(total, gen) {
  if (gen < app.totalGen) return;
  app.totalGen = gen;
  if (total === app.total && spacer.style.height) return;
  app.total = total;
  spacer.style.height = `${total * ROW_HEIGHT}px`;
  grid.setAttribute('aria-rowcount', String(total + 1));
  $('tx-empty').hidden = total !== 0;
  if (app.selectedIndex >= total) app.selectedIndex = total - 1;
  updateScrollbarWidth();
}

function updateScrollbarWidth() {
  grid.style.setProperty('--scrollbar', `${scroller.offsetWidth - scroller.clientWidth}px`);
}

function visibleRange() {
  const top = scroller.scrollTop;
  const height = scroller.clientHeight || 600;
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(app.total - 1, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
  return [first, last];
}

function rowAt(index) {
  const block = app.blocks.get(Math.floor(index / BLOCK));
  return block ? block.rows[index % BLOCK] : undefined;
}

function filterQuery(offset, limit) {
  return query({ offset, limit, ...app.filters });
}

function fetchBlock(b) {
  const gen = app.gen;
  const key = app.filterKey;
  const running = app.inflight.get(b);
  if (running && running.gen === gen && running.key === key) return running.promise;
  const promise = getJSON(`/ui/api/transactions?${filterQuery(b * BLOCK, BLOCK)}`)
    .then((page) => {
      if (key !== app.filterKey) return;
      const current = app.blocks.get(b);
      if (!current || current.gen <= gen) app.blocks.set(b, { gen, rows: page.transactions });
      setTotal(page.total, gen);
      renderRows();
    })
    .catch((error) => {
      if (key !== app.filterKey) return;
      // The member filtered on left the family (another process ran 'family remove'): the
      // overview no longer lists it, and reading it puts the list back on the account's.
      if (app.filters.member && error.status === 400) {
        loadOverview().catch((again) => showError(`overview: ${again.message}`));
        return;
      }
      showError(`transactions: ${error.message}`);
    })
    .finally(() => {
      const now = app.inflight.get(b);
      if (now && now.promise === promise) app.inflight.delete(b);
    });
  app.inflight.set(b, { gen, key, promise });
  return promise;
}

/** Fetches the blocks in view that are missing or older than the current generation. */
function fetchVisibleBlocks() {
  const [first, last] = visibleRange();
  const jobs = [];
  const lastBlock = Math.max(Math.floor(Math.max(last, 0) / BLOCK), 0);
  for (let b = Math.floor(first / BLOCK); b <= lastBlock; b++) {
    const block = app.blocks.get(b);
    if (!block || block.gen < app.gen) jobs.push(fetchBlock(b));
  }
  return Promise.all(jobs);
}

function makeRow() {
  const row = el('div', { class: 'grid-row tx-cols', role: 'row' });
  for (let i = 0; i < 8; i++) row.append(el('span', { role: 'gridcell' }));
  return row;
}

function fillRow(row, index, t) {
  row.id = `tx-row-${index}`;
  row.setAttribute('aria-rowindex', String(index + 2));
  const cells = row.children;
  if (!t) {
    row.classList.add('placeholder');
    row.removeAttribute('data-id');
    row.setAttribute('aria-selected', String(index === app.selectedIndex));
    cells[0].textContent = '…';
    for (let i = 1; i < cells.length; i++) cells[i].textContent = '';
    return;
  }
  row.classList.remove('placeholder');
  row.dataset.id = t.transactionIdentifier;
  row.dataset.state = t.state;
  row.dataset.index = String(index);
  row.setAttribute('aria-selected', String(t.transactionIdentifier === app.selectedId));
  cells[0].textContent = t.transactionIdentifier;
  cells[0].className = 'mono';
  cells[1].textContent = t.productIdentifier;
  cells[1].title = `${t.productIdentifier} (${t.productType})`;
  cells[2].replaceChildren(badge(isRefunded(t) ? 'refunded' : t.state));
  cells[2].title = `${t.state}${isRefunded(t) ? `, refunded ${t.revocationDate}` : ''}, ${t.finished ? 'finished' : 'not finished'}`;
  cells[3].replaceChildren(dateCell(t.transactionDate));
  cells[4].textContent = String(t.quantity);
  cells[4].className = 'num';
  cells[5].textContent = price(t);
  cells[5].className = 'num';
  cells[6].replaceChildren(t.expiresDate ? dateCell(t.expiresDate) : '—');
  cells[7].textContent = shortUser(t.userIdentifier);
  cells[7].title = t.userIdentifier || 'no applicationUsername';
}

function renderRows() {
  const [first, last] = visibleRange();
  const count = Math.max(0, last - first + 1);
  rowsLayer.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
  while (rowsLayer.childElementCount < count) rowsLayer.append(makeRow());
  while (rowsLayer.childElementCount > count) rowsLayer.lastElementChild.remove();
  let selectedRendered = false;
  for (let k = 0; k < count; k++) {
    const index = first + k;
    const t = rowAt(index);
    fillRow(rowsLayer.children[k], index, t);
    if (t && t.transactionIdentifier === app.selectedId) {
      app.selectedIndex = index;
      selectedRendered = true;
    }
  }
  if (selectedRendered) grid.setAttribute('aria-activedescendant', `tx-row-${app.selectedIndex}`);
  else grid.removeAttribute('aria-activedescendant');
  const firstShown = Math.floor(scroller.scrollTop / ROW_HEIGHT) + 1;
  const lastShown = Math.min(app.total, Math.floor((scroller.scrollTop + scroller.clientHeight) / ROW_HEIGHT));
  $('tx-range').textContent =
    app.total === 0 ? 'No transactions' : `${firstShown.toLocaleString('en-US')}–${lastShown.toLocaleString('en-US')} of ${plural(app.total, 'transaction')}, newest first`;
  fetchVisibleBlocks();
  // The selected index moved onto a row that just arrived: select it.
  if (app.selectedIndex >= 0 && !selectedRendered) {
    const t = rowAt(app.selectedIndex);
    if (t && app.pendingIndexSelect === app.selectedIndex) {
      app.pendingIndexSelect = -1;
      selectTransaction(t.transactionIdentifier, app.selectedIndex);
    }
  }
}

function scrollIndexIntoView(index) {
  const top = index * ROW_HEIGHT;
  if (top < scroller.scrollTop) scroller.scrollTop = top;
  else if (top + ROW_HEIGHT > scroller.scrollTop + scroller.clientHeight) scroller.scrollTop = top + ROW_HEIGHT - scroller.clientHeight;
}

function selectIndex(index) {
  if (app.total === 0) return;
  index = Math.max(0, Math.min(app.total - 1, index));
  app.selectedIndex = index;
  scrollIndexIntoView(index);
  const t = rowAt(index);
  if (t) selectTransaction(t.transactionIdentifier, index);
  else {
    app.pendingIndexSelect = index;
    renderRows();
  }
}

function selectTransaction(id, index = -1) {
  app.selectedId = id;
  if (index >= 0) app.selectedIndex = index;
  renderRows();
  loadDetail(id);
}

function clearSelection() {
  app.selectedId = null;
  app.selectedIndex = -1;
  app.detail = null;
  renderRows();
  renderInspector();
}

function applyFilters() {
  const f = {
    product: $('f-product').value,
    state: $('f-state').value,
    account: $('f-account').value.trim(),
    member: $('f-member').value,
  };
  const key = JSON.stringify(f);
  if (key === app.filterKey) return;
  app.filters = f;
  app.filterKey = key;
  app.blocks.clear();
  app.inflight.clear();
  app.gen++;
  app.selectedIndex = -1;
  scroller.scrollTop = 0;
  rowsLayer.replaceChildren();
  fetchBlock(0);
}

// ---------------------------------------------------------------------------------------------
// The inspector: every field, the decoded JWS, the receipt entry, the transaction's events.

async function loadDetail(id, { quiet = false } = {}) {
  const request = ++app.detailRequest;
  if (!quiet) $('inspector-subtitle').textContent = `Loading ${id}…`;
  try {
    const detail = await getJSON(`/ui/api/transactions/${encodeURIComponent(id)}`);
    if (request !== app.detailRequest) return;
    app.detail = detail;
  } catch (error) {
    if (request !== app.detailRequest) return;
    app.detail = { missing: id, message: error.message };
  }
  renderInspector();
}

function kv(object, skip = new Set()) {
  const list = el('dl', { class: 'kv' });
  for (const [key, value] of Object.entries(object)) {
    if (skip.has(key)) continue;
    const isNull = value === null || value === undefined;
    let text;
    if (isNull) text = 'null';
    else if (typeof value === 'object') text = JSON.stringify(value);
    else text = String(value);
    list.append(el('dt', { title: key, text: key }), el('dd', { class: isNull ? 'null' : undefined, text }));
  }
  return list;
}

function section(key, title, ...content) {
  const open = app.openSections.has(key) ? app.openSections.get(key) : true;
  const details = el('details', { open, 'data-section': key }, el('summary', { text: title }), ...content);
  details.addEventListener('toggle', () => app.openSections.set(key, details.open));
  return details;
}

function abbreviateHeader(header) {
  const copy = { ...header };
  if (Array.isArray(copy.x5c)) copy.x5c = copy.x5c.map((c) => `${c.slice(0, 24)}… (${c.length} base64 characters)`);
  return copy;
}

function transactionActions(t, subscription, refundRequest) {
  const id = t.transactionIdentifier;
  const owned = OWNED_STATES.has(t.state) && !isRefunded(t);
  const actions = [];
  // A family member's transactions are neither refunded nor deleted (the CLI refuses, exit 4): a
  // FAMILY_SHARED copy goes with the purchaser's refund or the member leaving (docs/family.md).
  if (t.familyMember) return actions;
  const add = (command, label, args, options = {}) => {
    if (offers(command)) actions.push({ command, label, args, ...options });
  };
  if (t.state === 'deferred') {
    add('approve', 'Approve', ['approve', id], { primary: true });
    add('decline', 'Decline', ['decline', id]);
  }
  if (!t.finished && FINISHABLE_STATES.has(t.state)) add('finish', 'Finish', ['finish', id]);
  if (t.state === 'failed' && t.error && t.error.name === 'paymentCancelled') add('resolve', 'Resolve', ['resolve', id]);
  // 'refund TXID' is 'refund now TXID' (the CLI's default subcommand), listed as 'refund now'.
  if (owned && t.charged) add('refund now', 'Refund', null, { refund: true });
  // The refund request flow: Request while none is open, then Approve or Decline it.
  const open = refundRequest && refundRequest.status === 'open';
  if (owned && t.charged && !open) add('refund request', 'Request Refund', ['refund', 'request', id]);
  if (owned && open) {
    add('refund approve', 'Approve Refund', ['refund', 'approve', id]);
    add('refund decline', 'Decline Refund', ['refund', 'decline', id]);
  }
  if (isRefunded(t)) add('refund reverse', 'Reverse Refund', ['refund', 'reverse', id]);
  if (subscription) actions.push(...subscriptionActions(subscription));
  add('delete', 'Delete…', ['delete', id, '--yes'], {
    danger: true,
    confirm: `Delete transaction ${id} (${t.productIdentifier})? It disappears from history as if it never happened; what it gave goes with it.`,
  });
  return actions;
}

function subscriptionActions(s) {
  const id = s.originalTransactionIdentifier;
  const ended = s.status === 'expired' || s.status === 'revoked';
  const actions = [];
  const add = (command, label, args, options = {}) => {
    if (offers(command)) actions.push({ command, label, args, ...options });
  };
  if (!ended) {
    add('renew', 'Renew', ['renew', id]);
    add('expire', 'Expire', ['expire', id]);
    add('auto-renew', s.autoRenewStatus ? 'Auto-Renew Off' : 'Auto-Renew On', ['auto-renew', s.autoRenewStatus ? 'off' : 'on', id]);
  }
  if (s.status === 'inGracePeriod' || s.status === 'inBillingRetry') add('resolve', 'Resolve Billing', ['resolve', id]);
  // priceIncreaseStatus 0: an increase waits for the subscriber's answer (1: accepted, nothing to answer).
  if (!ended && s.priceIncreaseStatus === 0) {
    add('price-consent', 'Accept Price', ['price-consent', id, 'accept']);
    add('price-consent', 'Decline Price', ['price-consent', id, 'decline']);
  }
  return actions;
}

function actionButton(action, context) {
  return el('button', {
    type: 'button',
    class: action.primary ? 'primary' : action.danger ? 'danger' : undefined,
    'data-command': action.command,
    'aria-label': context ? `${action.label.replace('…', '')} ${context}` : undefined,
    text: action.label,
    onclick: () => runAction(action.args, { confirm: action.confirm }),
  });
}

function renderInspector() {
  const actionsBar = $('inspector-actions');
  const body = $('inspector-body');
  const detail = app.detail;
  if (!detail) {
    $('inspector-title').textContent = 'Inspector';
    $('inspector-subtitle').textContent = 'Select a transaction.';
    actionsBar.hidden = true;
    actionsBar.replaceChildren();
    body.replaceChildren();
    return;
  }
  if (detail.missing) {
    $('inspector-title').textContent = detail.missing;
    $('inspector-subtitle').textContent = detail.message;
    actionsBar.hidden = true;
    actionsBar.replaceChildren();
    body.replaceChildren();
    return;
  }
  const t = detail.transaction;
  const product = app.overview && app.overview.products.find((p) => p.productIdentifier === t.productIdentifier);
  $('inspector-title').textContent = product ? product.localizedTitle : t.productIdentifier;
  $('inspector-subtitle').replaceChildren(
    ...[
      el('span', { class: 'mono', text: `${t.transactionIdentifier} ` }),
      badge(t.state),
      isRefunded(t) ? badge('refunded') : null,
      el('span', { class: 'muted', text: t.finished ? ' finished' : ' unfinished' }),
      t.familyMember ? el('span', { class: 'family', id: 'inspector-member', text: ` ${t.inAppOwnershipType} · ${t.familyMember}` }) : null,
    ].filter(Boolean),
  );

  const focused = document.activeElement && actionsBar.contains(document.activeElement) ? document.activeElement.dataset.command : null;
  const actions = transactionActions(t, detail.subscription, detail.refundRequest);
  const controls = [];
  for (const action of actions) {
    if (action.refund) {
      const reason = el(
        'select',
        { id: 'refund-reason', 'aria-label': 'Refund reason' },
        new Option('Other reason (0)', '0'),
        new Option('Issue in the app (1)', '1'),
      );
      controls.push(
        el('button', {
          type: 'button',
          'data-command': 'refund',
          text: 'Refund',
          onclick: () => runAction(['refund', t.transactionIdentifier, '--reason', reason.value]),
        }),
        reason,
      );
    } else {
      controls.push(actionButton(action));
    }
  }
  actionsBar.replaceChildren(...controls);
  actionsBar.hidden = controls.length === 0;
  if (focused) {
    const again = actionsBar.querySelector(`[data-command="${CSS.escape(focused)}"]`);
    (again || actionsBar.querySelector('button') || $('inspector')).focus();
  }

  const parts = [section('transaction', 'Transaction', kv(t))];
  if (detail.subscription) parts.push(section('subscription', 'Subscription and renewal info', kv(detail.subscription)));
  if (detail.signed) {
    parts.push(
      section(
        'jws',
        'Signed transaction (JWS)',
        el('div', { class: 'sub-label', text: 'Header' }),
        el('pre', { class: 'json', 'aria-label': 'JWS header', text: JSON.stringify(abbreviateHeader(detail.signed.header), null, 2) }),
        el('div', { class: 'sub-label', text: 'Payload' }),
        el('pre', { class: 'json', 'aria-label': 'JWS payload', text: JSON.stringify(detail.signed.payload, null, 2) }),
        el('div', { class: 'sub-label' }, el('label', { for: 'jws-token', text: 'Compact serialization' })),
        el('pre', { class: 'json', id: 'jws-token', tabindex: '0', text: detail.signed.token }),
      ),
    );
  } else {
    parts.push(section('jws', 'Signed transaction (JWS)', el('p', { class: 'sub-label', text: detail.signedUnavailable || 'No signed transaction for this state.' })));
  }
  parts.push(
    section(
      'receipt',
      'Receipt entry',
      detail.receiptEntry ? kv(detail.receiptEntry) : el('p', { class: 'sub-label', text: 'Not in the app receipt.' }),
    ),
  );
  const events = detail.events || [];
  parts.push(
    section(
      'events',
      `Events (${events.length})`,
      el(
        'ol',
        { class: 'events-list' },
        ...events.map((e) => el('li', {}, el('span', { class: 'seq', text: e.seq }), el('span', { text: e.name }), dateCell(e.date))),
      ),
    ),
  );
  const scroll = body.scrollTop;
  body.replaceChildren(...parts);
  body.scrollTop = scroll;
}

function focusInspector() {
  const first = $('inspector-actions').querySelector('button:not(:disabled)');
  (first || $('inspector')).focus();
}

// ---------------------------------------------------------------------------------------------
// Subscriptions, downloads, events

async function loadSubscriptions() {
  app.dirty.subscriptions = false;
  try {
    const result = await getJSON('/ui/api/subscriptions');
    app.subscriptions = result.subscriptions;
    renderSubscriptions();
  } catch (error) {
    showError(`subscriptions: ${error.message}`);
  }
}

/** One line for what a subscription's renewal info says beyond its status. */
function subscriptionDetail(s) {
  const parts = [];
  if (s.autoRenewProductIdentifier && s.autoRenewProductIdentifier !== s.productIdentifier) parts.push(`renews as ${s.autoRenewProductIdentifier}`);
  if (s.gracePeriodExpiresDate) parts.push(`grace until ${shortDate(s.gracePeriodExpiresDate)}`);
  if (s.isInBillingRetryPeriod && s.billingRetryEndDate) parts.push(`retry until ${shortDate(s.billingRetryEndDate)}`);
  if (s.expirationIntent !== null && s.expirationIntent !== undefined) parts.push(`expiration intent ${s.expirationIntent}`);
  if (s.revocationDate) parts.push(`revoked ${shortDate(s.revocationDate)}`);
  if (s.renewalCount) parts.push(plural(s.renewalCount, 'renewal'));
  return parts.join(' · ') || '—';
}

function renderSubscriptions() {
  const table = $('subscriptions');
  const focused = document.activeElement && table.contains(document.activeElement) ? document.activeElement.getAttribute('aria-label') : null;
  table.tBodies[0].replaceChildren(
    ...app.subscriptions.map((s) => {
      const id = s.originalTransactionIdentifier;
      return el(
        'tr',
        { 'data-original': id },
        el(
          'td',
          {},
          el('button', {
            type: 'button',
            class: 'link',
            'aria-label': `Inspect ${s.latestTransactionIdentifier || id}`,
            text: id,
            onclick: () => selectTransaction(s.latestTransactionIdentifier || id),
          }),
        ),
        el('td', { class: 'mono', text: s.productIdentifier }),
        el('td', {}, badge(s.status)),
        el('td', {}, dateCell(s.expiresDate)),
        el('td', { text: s.autoRenewStatus ? 'on' : 'off' }),
        el('td', { class: 'detail', text: subscriptionDetail(s) }),
        el('td', {}, el('div', { class: 'row-actions' }, ...subscriptionActions(s).map((a) => actionButton(a, `${s.productIdentifier} ${id}`)))),
      );
    }),
  );
  table.parentElement.querySelector('.empty').hidden = app.subscriptions.length !== 0;
  if (focused) {
    const again = [...table.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === focused);
    if (again) again.focus();
  }
}

async function loadDownloads() {
  app.dirty.downloads = false;
  try {
    const result = await getJSON('/ui/api/downloads');
    app.downloads = result.downloads;
    renderDownloads();
  } catch (error) {
    showError(`downloads: ${error.message}`);
  }
}

function renderDownloads() {
  const table = $('downloads');
  table.tBodies[0].replaceChildren(
    ...app.downloads.map((d) => {
      const percent = Math.round((d.progress || 0) * 100);
      const label = `${d.contentIdentifier} of ${d.transactionIdentifier}: ${percent}%`;
      return el(
        'tr',
        {},
        el(
          'td',
          {},
          el('button', { type: 'button', class: 'link', 'aria-label': `Inspect ${d.transactionIdentifier}`, text: d.transactionIdentifier, onclick: () => selectTransaction(d.transactionIdentifier) }),
        ),
        el('td', { class: 'mono', text: d.productIdentifier }),
        el('td', { class: 'mono', text: d.contentIdentifier }),
        el('td', { class: 'mono', text: d.contentVersion || '—' }),
        el('td', { title: d.error ? `${d.error.name}: ${d.error.message}` : undefined }, badge(d.state)),
        el('td', {}, el('progress', { max: '1', value: String(d.progress || 0), 'aria-label': label }), ` ${percent}%`),
        el('td', { class: 'num', text: `${(d.downloadedBytes || 0).toLocaleString('en-US')} / ${(d.contentLength || 0).toLocaleString('en-US')}` }),
      );
    }),
  );
  table.parentElement.querySelector('.empty').hidden = app.downloads.length !== 0;
}

function eventAbout(e) {
  if (e.transaction) return `${e.transaction.transactionIdentifier} ${e.transaction.productIdentifier} (${e.transaction.state})`;
  if (e.setting) return `${e.setting.key} = ${e.setting.value}`;
  if (e.download) return `${e.download.transactionIdentifier} ${e.download.contentIdentifier} ${e.download.state}`;
  if (e.request) return JSON.stringify(e.request);
  return '';
}

function renderEvents() {
  app.dirty.events = false;
  const shown = app.events.slice(-200).reverse();
  $('events').tBodies[0].replaceChildren(
    ...shown.map((e) =>
      el('tr', {}, el('td', { class: 'num', text: e.seq }), el('td', { text: e.name }), el('td', {}, dateCell(e.date)), el('td', { class: 'mono', text: eventAbout(e) })),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Live: server-sent events from the store's log, coalesced into one refresh at a time.

let refreshing = false;
let refreshAgain = false;

async function scheduleRefresh() {
  if (refreshing) {
    refreshAgain = true;
    return;
  }
  refreshing = true;
  try {
    do {
      refreshAgain = false;
      const seq = app.lastSeq;
      app.gen++;
      const jobs = [loadOverview().catch((error) => showError(`overview: ${error.message}`)), fetchVisibleBlocks()];
      if (app.selectedId) jobs.push(loadDetail(app.selectedId, { quiet: true }));
      if (app.view === 'subscriptions') jobs.push(loadSubscriptions());
      else app.dirty.subscriptions = true;
      if (app.view === 'downloads') jobs.push(loadDownloads());
      else app.dirty.downloads = true;
      await Promise.allSettled(jobs);
      document.body.dataset.renderedSeq = String(seq);
    } while (refreshAgain);
  } finally {
    refreshing = false;
  }
}

let source = null;

function setLive(state, text) {
  const live = $('live');
  live.dataset.state = state;
  live.textContent = text;
}

function connectEvents() {
  if (source) source.close();
  const newest = app.events.length ? app.events[app.events.length - 1].seq : Math.max(0, app.lastSeq - HISTORY_EVENTS);
  source = new EventSource(`/ui/api/events?since=${newest}`);
  source.onopen = () => setLive('live', 'Live');
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) {
      setLive('offline', 'Offline — retrying');
      setTimeout(connectEvents, 3000);
    } else {
      setLive('connecting', 'Reconnecting…');
    }
  };
  source.onmessage = (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    const newest = app.events.length ? app.events[app.events.length - 1].seq : 0;
    if (typeof event.seq !== 'number' || event.seq <= newest) return;
    app.events.push(event);
    if (app.events.length > EVENT_LOG_SIZE) app.events.splice(0, app.events.length - EVENT_LOG_SIZE);
    if (app.view === 'events') renderEvents();
    else app.dirty.events = true;
    // Events up to the overview's lastEventSeq are history for the log; later ones are news.
    if (event.seq > app.lastSeq) {
      app.lastSeq = event.seq;
      scheduleRefresh();
    }
  };
}

// ---------------------------------------------------------------------------------------------
// Keyboard and wiring

grid.addEventListener('keydown', (e) => {
  if (e.target !== grid) return;
  const page = Math.max(1, Math.floor(scroller.clientHeight / ROW_HEIGHT) - 1);
  let index = app.selectedIndex;
  switch (e.key) {
    case 'ArrowDown':
      index = index < 0 ? 0 : index + 1;
      break;
    case 'ArrowUp':
      index = index < 0 ? 0 : index - 1;
      break;
    case 'PageDown':
      index = Math.max(index, 0) + page;
      break;
    case 'PageUp':
      index = Math.max(index, 0) - page;
      break;
    case 'Home':
      index = 0;
      break;
    case 'End':
      index = app.total - 1;
      break;
    case 'Enter':
      e.preventDefault();
      if (app.selectedId) focusInspector();
      else selectIndex(0);
      return;
    case 'Escape':
      e.preventDefault();
      clearSelection();
      return;
    default:
      return;
  }
  e.preventDefault();
  selectIndex(index);
});

rowsLayer.addEventListener('click', (e) => {
  const row = e.target.closest('.grid-row');
  if (!row || !row.dataset.id) return;
  selectTransaction(row.dataset.id, Number(row.dataset.index));
  grid.focus({ preventScroll: true });
});

$('inspector').addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || e.defaultPrevented) return;
  e.preventDefault();
  if (app.view === 'transactions') grid.focus();
  else document.querySelector(`#view-${app.view} button, #view-${app.view} [tabindex="0"]`)?.focus();
});

let scrollScheduled = false;
scroller.addEventListener('scroll', () => {
  if (scrollScheduled) return;
  scrollScheduled = true;
  requestAnimationFrame(() => {
    scrollScheduled = false;
    renderRows();
  });
});
new ResizeObserver(() => renderRows()).observe(scroller);

for (const button of document.querySelectorAll('.sidebar [data-view]')) {
  button.addEventListener('click', () => showView(button.dataset.view));
}

$('filters').addEventListener('submit', (e) => {
  e.preventDefault();
  applyFilters();
});
for (const id of ['f-product', 'f-state', 'f-member']) $(id).addEventListener('change', applyFilters);
let accountTimer = 0;
$('f-account').addEventListener('input', () => {
  clearTimeout(accountTimer);
  accountTimer = setTimeout(applyFilters, 250);
});
$('f-account').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') {
    e.preventDefault();
    clearTimeout(accountTimer);
    applyFilters();
  } else if (e.key === 'Escape' && e.target.value) {
    e.preventDefault();
    e.target.value = '';
    applyFilters();
  }
});
$('buy-options').addEventListener('submit', (e) => e.preventDefault());

$('clock-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = $('clock-duration');
  const duration = input.value.trim();
  if (!duration) {
    showError('Give a duration to advance the clock by: P1M, P3DT4H, 36h, 90d');
    input.focus();
    return;
  }
  const result = await runAction(['clock', 'advance', duration]);
  if (result && result.exitCode === 0) input.value = '';
});

$('family-add-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = $('family-name');
  const name = input.value.trim();
  if (!name) {
    showError('Give the new family member a name: 1-32 letters, digits, ".", "_" or "-"');
    input.focus();
    return;
  }
  const result = await runAction(['family', 'add', name]);
  if (result && result.exitCode === 0) input.value = '';
});

$('price-increase-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const product = $('pi-product').value;
  const newPrice = $('pi-price').value.trim();
  if (!product) {
    showError('Choose the auto-renewable subscription whose price goes up');
    $('pi-product').focus();
    return;
  }
  if (!newPrice) {
    showError('Give the new price, a decimal in the storefront\'s currency (12.99)');
    $('pi-price').focus();
    return;
  }
  const args = ['price-increase', product, newPrice, ...($('pi-consent').checked ? [] : ['--no-consent'])];
  const result = await runAction(args);
  if (result && result.exitCode === 0) $('pi-price').value = '';
});

$('finish-all').addEventListener('click', () => runAction(['finish', '--all']));
$('clear-all').addEventListener('click', () =>
  runAction(['clear', '--yes'], {
    confirm: 'Delete every transaction? The queue empties, nothing stays owned, subscriptions end. Settings, the clock and the event log stay.',
  }),
);

function applyOffered() {
  for (const node of document.querySelectorAll('[data-command]')) {
    if (node.closest('#inspector, #subscriptions')) continue;
    node.hidden = !offers(node.dataset.command);
  }
}

async function start() {
  setLive('connecting', 'Connecting…');
  app.filterKey = JSON.stringify(app.filters);
  try {
    const [actions] = await Promise.all([getJSON('/ui/api/actions'), loadOverview()]);
    app.offered = new Map(actions.actions.map((a) => [a.command, a.usage]));
    applyOffered();
    renderOverview(false);
    await fetchBlock(0);
    renderRows();
    performance.mark('iapctl-first-render');
    document.body.dataset.ready = 'true';
    document.body.dataset.renderedSeq = String(app.lastSeq);
    connectEvents();
  } catch (error) {
    setLive('offline', 'Offline');
    showError(`Could not load the store: ${error.message}`);
  }
}

start();
