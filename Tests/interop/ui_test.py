#!/usr/bin/env python3
"""The Transaction Manager in a real browser: headless Chromium driven by Selenium.

Run by Tests/IAPCLITests/UI/BrowserUITests.swift (so by `make test`), or by hand:

    python3 Tests/interop/ui_test.py --iapctl .build/debug/iapctl --workdir /tmp/ui-run \
        [--screenshot docs/ui-screenshot.png]

It creates a store in WORKDIR, starts `iapctl ui` on it (or uses --url, a server already running on
--store), and checks, each step against the store itself through the CLI (`iapctl dump`, `show`,
`events`):

- the page loads and shows the store (rows, clock, counts), with no console error;
- a purchase made by the CLI appears without a reload (server-sent events);
- clicking Refund revokes the purchase in the store;
- Ask to Buy: a deferred purchase is approved by clicking Approve;
- an action's failure shows the CLI's own one-line error;
- Delete asks first: Escape cancels, Enter confirms;
- the keyboard drives the list and the inspector, and every control has an accessible name;
- a forged action (no token, wrong token, foreign Origin or Host, wrong content type, a command
  outside the whitelist) is refused and changes nothing; a page on another origin can neither
  read the API nor change the store, by form or by fetch;
- it takes a PNG screenshot;
- and every other button reaches the store: Auto-Renew Off and On, Renew and Expire on a
  subscription, the refund request flow, Request Price Increase (the Subscriptions view's form)
  and Accept Price, Buy from Products (a promoted purchase), Finish, Resolve an interrupted
  purchase, Finish All, a setting by menu and by text field, and Clear (asked first);
- Family Sharing, on a second store of Fixtures/family/catalog.json: the sidebar's form adds a
  member, the member filter lists the member's FAMILY_SHARED transactions (live), the inspector
  shows its ownership, member, `jws --member` JWS and receipt entry, and Remove takes it out.

Every wait is a bounded poll of a condition (WebDriverWait), never a sleep. Prints one line per
check and ends with 'N passed, N failed'. Exit 0 when all passed, 1 when one failed, 2 when the
browser, the driver or Selenium is missing (with the package to install).
"""
import argparse
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import traceback
import urllib.error
import urllib.request

try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError as error:
    print(f"Selenium is not installed for {sys.executable} ({error}); `make test` puts it in .build/venv, "
          "or put a venv made with 'pip install -r requirements-test.txt' first on PATH", file=sys.stderr)
    sys.exit(2)

WAIT = 20  # seconds: the bound on every wait for the page


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Store:
    """The CLI on the test's store: the ground truth every check compares the page with."""

    def __init__(self, iapctl, path):
        self.iapctl = iapctl
        self.path = path

    def run(self, *args, expect=None):
        r = subprocess.run([self.iapctl, "--store", self.path, *args], capture_output=True, text=True, timeout=60)
        if expect is not None and r.returncode != expect:
            raise Failure(f"iapctl {' '.join(args)} exited {r.returncode}, expected {expect}: {r.stderr.strip()}")
        return r

    def json(self, *args, expect=0):
        return json.loads(self.run(*args, "--json", expect=expect).stdout)

    def dump(self):
        return json.loads(self.run("dump", expect=0).stdout)

    def transaction(self, txid):
        return self.json("show", txid)

    def last_seq(self):
        lines = self.run("events", expect=0).stdout.splitlines()
        return json.loads(lines[-1])["seq"] if lines else 0


def find_tool(name, given, debian_package):
    path = given or shutil.which(name) or (f"/usr/bin/{name}" if os.path.exists(f"/usr/bin/{name}") else None)
    if not path or not os.access(path, os.X_OK):
        print(
            f"{name} is not installed; the browser tests need Debian's '{debian_package}' package "
            f"(apt-get install chromium chromium-driver)",
            file=sys.stderr,
        )
        sys.exit(2)
    return path


def start_browser(chromium, chromedriver, width=1440, height=900):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ["--headless=new", "--disable-gpu", "--no-first-run", "--disable-extensions",
                     f"--window-size={width},{height}", "--force-color-profile=srgb", "--hide-scrollbars=false",
                     "--disable-features=Translate,MediaRouter", "--lang=en-US"]:
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium's sandbox cannot run as root
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        return webdriver.Chrome(service=Service(chromedriver), options=options)
    except WebDriverException as error:
        print(f"Chromium did not start through {chromedriver}: {error.msg}", file=sys.stderr)
        sys.exit(2)


class UIServer:
    """`iapctl ui` on the store, or a server already running (--url)."""

    def __init__(self, store, url=None):
        self.process = None
        if url:
            self.url = url.rstrip("/") + "/"
            return
        self.process = subprocess.Popen(
            [store.iapctl, "--store", store.path, "ui", "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://[^\s]+", line)
        if not match:
            self.process.kill()
            raise Failure(f"iapctl ui printed {line!r} first, not its URL; stderr: {self.process.stderr.read()}")
        self.url = match.group(0).rstrip("/") + "/"

    @property
    def origin(self):
        return self.url.rstrip("/")

    @property
    def port(self):
        return int(self.origin.rsplit(":", 1)[1])

    def stop(self):
        if self.process:
            self.process.terminate()
            try:
                code = self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                raise Failure("iapctl ui did not stop within 20 s of SIGTERM")
            check(code == 0, f"iapctl ui exited {code} on SIGTERM; stderr: {self.process.stderr.read()}")


def fetch(method, url, body=None, headers=None):
    """One request with urllib, outside any browser: (status, headers, body bytes)."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


class UITest:
    def __init__(self, args):
        self.args = args
        os.makedirs(args.workdir, exist_ok=True)
        self.store = Store(args.iapctl, args.store or os.path.join(args.workdir, "store"))
        self.results = []

    # -- helpers on the page ---------------------------------------------------------------

    def wait(self, condition, message, timeout=WAIT):
        try:
            # A row the page redraws between finding it and reading it is stale: poll again.
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05,
                                 ignored_exceptions=(StaleElementReferenceException,)).until(lambda d: condition())
        except Exception as error:
            raise Failure(f"{message} (waited {timeout} s; {type(error).__name__})")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def row(self, txid):
        rows = self.driver.find_elements(By.CSS_SELECTOR, f'#tx-rows .grid-row[data-id="{txid}"]')
        return rows[0] if rows else None

    def row_ids(self):
        return self.js("return [...document.querySelectorAll('#tx-rows .grid-row[data-id]')].map(r => r.dataset.id)")

    def wait_row(self, txid, state=None, refunded=None):
        def ready():
            r = self.row(txid)
            if r is None:
                return False
            if state is not None and r.get_attribute("data-state") != state:
                return False
            if refunded is not None:
                badge = r.find_element(By.CSS_SELECTOR, ".badge").text
                if (badge == "refunded") != refunded:
                    return False
            return r
        return self.wait(ready, f"row {txid}" + (f" in state {state}" if state else "") + (" refunded" if refunded else ""))

    def select(self, txid):
        def click():
            r = self.row(txid)
            if r is None:
                return False
            r.click()  # stale when the page redrew the row: the wait polls again
            return True
        self.wait(click, f"row {txid} to click")
        self.wait(lambda: self.js("return document.querySelector('#inspector-subtitle .mono')?.textContent.trim()") == txid,
                  f"the inspector shows {txid}")

    def action_button(self, command):
        def find():
            buttons = self.driver.find_elements(By.CSS_SELECTOR, f'#inspector-actions button[data-command="{command}"]')
            return buttons[0] if buttons and buttons[0].is_displayed() and buttons[0].is_enabled() else False
        return self.wait(find, f"the inspector offers '{command}'")

    def click_action(self, command):
        """Clicks the inspector's button for COMMAND, finding it again if the inspector was redrawn."""
        def click():
            button = self.action_button(command)
            button.click()
            return True
        self.wait(click, f"a click on '{command}'")

    def click_css(self, selector, message):
        """Clicks the first displayed, enabled element matching SELECTOR, found again if redrawn."""
        def click():
            found = [e for e in self.driver.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed() and e.is_enabled()]
            if not found:
                return False
            found[0].click()
            return True
        self.wait(click, message)

    def show_view(self, view):
        self.driver.find_element(By.CSS_SELECTOR, f'.sidebar [data-view="{view}"]').click()
        self.wait(lambda: not self.driver.find_element(By.ID, f"view-{view}").get_attribute("hidden"), f"view {view} shows")

    def subscription(self, original):
        return [s for s in self.store.json("subscriptions") if s["originalTransactionIdentifier"] == original][0]

    def token(self):
        return self.js("return document.querySelector('meta[name=\"iapctl-token\"]').content")

    def status(self):
        return self.driver.find_element(By.ID, "status").text

    def error(self):
        return self.driver.find_element(By.ID, "error").text

    def console_errors(self):
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    # -- the checks ------------------------------------------------------------------------

    def test_page_loads(self):
        self.driver.get(self.server.url)
        self.wait(lambda: self.js("return document.body.dataset.ready") == "true", "the page says it is ready")
        check("Transaction Manager" in self.driver.title, f"title {self.driver.title!r}")
        dump = self.store.dump()
        newest_first = [t["transactionIdentifier"] for t in reversed(dump)]
        self.wait(lambda: self.row_ids() == newest_first, f"rows {newest_first} (newest first)")
        clock = self.store.json("clock")["clock"]
        shown = self.driver.find_element(By.ID, "clock").get_attribute("datetime")
        check(shown == clock, f"the toolbar clock says {shown}, the store {clock}")
        count = self.driver.find_element(By.ID, "count-transactions").text
        check(count == str(len(dump)), f"the sidebar counts {count} transactions, the store has {len(dump)}")
        check(self.driver.find_element(By.ID, "live").get_attribute("data-state") in ("live", "connecting"), "live indicator")
        self.wait(lambda: self.driver.find_element(By.ID, "live").get_attribute("data-state") == "live", "the event stream is open")
        errors = self.console_errors()
        check(not errors, f"console errors: {errors}")

    def test_cli_purchase_appears_live(self):
        self.js("window.__sameDocument = 'yes'")
        bought = self.store.json("buy", "com.x.noads")
        txid = bought["transactionIdentifier"]
        self.wait_row(txid, state="purchased")
        check(self.row_ids()[0] == txid, f"the new purchase {txid} is the first row: {self.row_ids()[:3]}")
        check(self.js("return window.__sameDocument") == "yes", "the page was reloaded")
        count = self.driver.find_element(By.ID, "count-transactions").text
        self.wait(lambda: self.driver.find_element(By.ID, "count-transactions").text == str(len(self.store.dump())),
                  f"the count follows the store (shows {count})")
        self.noads = txid

    def test_refund_click(self):
        txid = self.noads
        self.select(txid)
        check(self.store.transaction(txid)["revocationDate"] is None, "the purchase is not refunded before the click")
        self.click_action("refund")
        self.wait_row(txid, refunded=True)
        t = self.store.transaction(txid)
        check(t["revocationDate"] is not None, f"iapctl show {txid}: revocationDate is null after Refund")
        dumped = [x for x in self.store.dump() if x["transactionIdentifier"] == txid][0]
        check(dumped["revocationDate"] == t["revocationDate"] and dumped["revocationReason"] == 0,
              f"iapctl dump shows the refund: {dumped['revocationDate']}, reason {dumped['revocationReason']}")
        self.wait(lambda: f"iapctl refund {txid}" in self.status() and "done" in self.status(), f"status line: {self.status()!r}")
        self.wait(lambda: not self.driver.find_elements(By.CSS_SELECTOR, '#inspector-actions button[data-command="refund"]'),
                  "Refund is no longer offered for a refunded purchase")

    def test_ask_to_buy_approve(self):
        self.store.run("config", "set", "ask-to-buy", "true", expect=0)
        deferred = self.store.json("buy", "com.x.coin210", expect=5)
        txid = deferred["transactionIdentifier"]
        check(deferred["state"] == "deferred", f"buy with ask-to-buy on is {deferred['state']}")
        self.wait_row(txid, state="deferred")
        self.select(txid)
        self.click_action("approve")
        self.wait_row(txid, state="purchased")
        check(self.store.transaction(txid)["state"] == "purchased", "iapctl show: the approved purchase is purchased")
        self.store.run("config", "set", "ask-to-buy", "false", expect=0)
        self.wait(lambda: not self.driver.find_elements(By.CSS_SELECTOR, '#inspector-actions button[data-command="approve"]'),
                  "Approve is gone once approved")

    def test_decline_and_error_text(self):
        self.store.run("config", "set", "ask-to-buy", "true", expect=0)
        txid = self.store.json("buy", "com.x.coin42", expect=5)["transactionIdentifier"]
        self.store.run("config", "set", "ask-to-buy", "false", expect=0)
        self.select(txid)
        self.click_action("decline")
        self.wait_row(txid, state="failed")
        check(self.store.transaction(txid)["error"]["name"] == "paymentCancelled", "decline fails it with paymentCancelled")
        # A bad duration: the page shows the CLI's own one-line error and exit code.
        expected = self.store.run("clock", "advance", "P1X").stderr.strip()
        check(expected.startswith("error: "), f"the CLI's error: {expected!r}")
        field = self.driver.find_element(By.ID, "clock-duration")
        field.clear()
        field.send_keys("P1X", Keys.ENTER)
        want = "exit 64: " + expected[len("error: "):]
        self.wait(lambda: self.error() == want, f"the error line says {want!r}, not {self.error()!r}")
        before = self.store.json("clock")["clock"]
        field.clear()
        field.send_keys("P1D", Keys.ENTER)
        self.wait(lambda: self.store.json("clock")["clock"] != before, "Advance P1D moves the store's clock")
        after = self.store.json("clock")["clock"]
        self.wait(lambda: self.driver.find_element(By.ID, "clock").get_attribute("datetime") == after, f"the clock shows {after}")
        check(self.error() == "", f"the error line is cleared after a success: {self.error()!r}")

    def test_delete_confirms(self):
        txid = self.store.json("buy", "com.x.coin686")["transactionIdentifier"]
        self.select(txid)
        self.click_action("delete")
        dialog = self.wait(lambda: self.driver.find_element(By.ID, "confirm") if self.js("return document.getElementById('confirm').open") else False,
                           "Delete asks first")
        check(txid in dialog.text, f"the question names the transaction: {dialog.text!r}")
        self.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        self.wait(lambda: not self.js("return document.getElementById('confirm').open"), "Escape closes the question")
        check(any(t["transactionIdentifier"] == txid for t in self.store.dump()), "Escape deleted nothing")
        self.click_action("delete")
        self.wait(lambda: self.js("return document.getElementById('confirm').open"), "Delete asks again")
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        self.wait(lambda: not any(t["transactionIdentifier"] == txid for t in self.store.dump()), "Enter deletes it from the store")
        self.wait(lambda: self.row(txid) is None, "the deleted row leaves the list")

    def test_keyboard(self):
        grid = self.driver.find_element(By.ID, "tx-grid")
        self.js("arguments[0].focus()", grid)
        ids = [t["transactionIdentifier"] for t in reversed(self.store.dump())]
        active = lambda: self.driver.switch_to.active_element
        active().send_keys(Keys.HOME)
        self.wait(lambda: self.js("return document.querySelector('#inspector-subtitle .mono')?.textContent.trim()") == ids[0], "Home selects the newest")
        active().send_keys(Keys.ARROW_DOWN)
        self.wait(lambda: self.js("return document.querySelector('#inspector-subtitle .mono')?.textContent.trim()") == ids[1], "Down selects the next")
        check(self.row(ids[1]).get_attribute("aria-selected") == "true", "the row is marked aria-selected")
        check(grid.get_attribute("aria-activedescendant") == self.row(ids[1]).get_attribute("id"), "aria-activedescendant follows")
        active().send_keys(Keys.END)
        self.wait(lambda: self.js("return document.querySelector('#inspector-subtitle .mono')?.textContent.trim()") == ids[-1], "End selects the oldest")
        active().send_keys(Keys.ENTER)
        self.wait(lambda: self.js("return document.getElementById('inspector').contains(document.activeElement)"), "Enter moves into the inspector")
        active().send_keys(Keys.ESCAPE)
        self.wait(lambda: self.js("return document.activeElement === document.getElementById('tx-grid')"), "Escape returns to the list")
        active().send_keys(Keys.ESCAPE)
        self.wait(lambda: self.js("return document.querySelector('#inspector-subtitle').textContent") == "Select a transaction.", "Escape clears the selection")

        # Tab order: the toolbar, the views, the filters, the list, then the inspector.
        self.js("document.activeElement.blur(); window.scrollTo(0, 0)")
        order = []
        body = self.driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.TAB)
        for _ in range(40):
            order.append(self.js("const e = document.activeElement; return e.id || e.dataset.view || e.getAttribute('aria-label') || e.textContent.trim()"))
            active().send_keys(Keys.TAB)
        def position(name):
            check(name in order, f"Tab never reaches {name}: {order}")
            return order.index(name)
        check(position("clock-duration") < position("transactions") < position("f-product") < position("tx-grid"),
              f"tab order: {order}")

        # Every control in every view has an accessible name (Chromium's own computation).
        unnamed = []
        for view in ["transactions", "subscriptions", "downloads", "products", "events", "settings"]:
            self.driver.find_element(By.CSS_SELECTOR, f'.sidebar [data-view="{view}"]').click()
            self.wait(lambda: not self.driver.find_element(By.ID, f"view-{view}").get_attribute("hidden"), f"view {view} shows")
            unnamed += self.unnamed_controls(view)
        check(not unnamed, f"controls without a name: {unnamed}")
        self.driver.find_element(By.CSS_SELECTOR, '.sidebar [data-view="transactions"]').click()

    CONTROL_ROLES = {"button", "textbox", "searchbox", "combobox", "ComboBoxSelect", "ComboBoxMenuButton", "listbox",
                     "checkbox", "radio", "spinbutton", "slider", "grid", "progressbar", "link", "tab", "menuitem"}

    def unnamed_controls(self, view):
        """The controls on screen whose accessible name, as Chromium's accessibility tree has it, is
        empty (one DevTools call for the whole page)."""
        tree = self.driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})
        unnamed = []
        for node in tree["nodes"]:
            if node.get("ignored"):
                continue
            role = (node.get("role") or {}).get("value", "")
            name = (node.get("name") or {}).get("value", "")
            if role in self.CONTROL_ROLES and not str(name).strip():
                unnamed.append(f"{view}: a {role} (backend node {node.get('backendDOMNodeId')})")
        return unnamed

    def test_forged_actions_refused(self):
        url = self.server.origin + "/ui/api/actions"
        token = self.token()
        check(re.fullmatch(r"[0-9a-f]{64}", token or "") is not None, f"the page carries a 64-hex-digit token: {token!r}")
        target = [t for t in self.store.dump() if t["state"] == "purchased" and not t["revocationDate"]][-1]["transactionIdentifier"]
        before = (self.store.last_seq(), self.store.run("dump").stdout)
        body = json.dumps({"arguments": ["refund", target]}).encode()
        cases = [
            ("no token", {"Content-Type": "application/json"}, body, 403),
            ("a wrong token", {"Content-Type": "application/json", "X-IAPCTL-Token": "0" * 64}, body, 403),
            ("a foreign Origin", {"Content-Type": "application/json", "X-IAPCTL-Token": token, "Origin": "http://evil.example"}, body, 403),
            ("a foreign Host", {"Content-Type": "application/json", "X-IAPCTL-Token": token, "Host": f"evil.example:{self.server.port}"}, body, 403),
            ("a form's content type", {"Content-Type": "text/plain", "X-IAPCTL-Token": token}, body, 415),
            ("a command outside the whitelist", {"Content-Type": "application/json", "X-IAPCTL-Token": token},
             json.dumps({"arguments": ["init", "--force"]}).encode(), 403),
            ("a global option", {"Content-Type": "application/json", "X-IAPCTL-Token": token},
             json.dumps({"arguments": ["refund", target, "--store", self.args.workdir + "/other"]}).encode(), 403),
            ("the downloader setting", {"Content-Type": "application/json", "X-IAPCTL-Token": token},
             json.dumps({"arguments": ["config", "set", "downloader", "touch " + self.args.workdir + "/pwned"]}).encode(), 403),
            ("a body that is not an argument list", {"Content-Type": "application/json", "X-IAPCTL-Token": token}, b'{"arguments": "refund"}', 400),
        ]
        for name, headers, data, status in cases:
            code, response_headers, answer = fetch("POST", url, data, headers)
            check(code == status, f"an action with {name} got {code}, not {status}: {answer[:200]!r}")
            check(b"errorMessage" in answer, f"the refusal ({name}) says why: {answer[:200]!r}")
            check("Access-Control-Allow-Origin" not in response_headers, f"the refusal ({name}) grants CORS")
        code, _, _ = fetch("GET", self.server.url, headers={"Host": f"rebound.example:{self.server.port}"})
        check(code == 403, f"GET / with a foreign Host (DNS rebinding) got {code}")
        after = (self.store.last_seq(), self.store.run("dump").stdout)
        check(after == before, f"a refused action changed the store: events {before[0]} -> {after[0]}: "
              + self.store.run("events", "--since", str(before[0])).stdout[:600])
        check(not os.path.exists(self.args.workdir + "/pwned"), "the downloader command ran")
        # The token works: the same request with it runs (and proves the cases above were refused for their reason).
        code, _, answer = fetch("POST", url, body, {"Content-Type": "application/json", "X-IAPCTL-Token": token, "Origin": self.server.origin})
        check(code == 200, f"the genuine action got {code}: {answer[:300]!r}")
        result = json.loads(answer)
        check(result["exitCode"] == 0 and result["error"] is None, f"refund through the API: {result}")
        check(self.store.transaction(target)["revocationDate"] is not None, "the genuine refund reached the store")
        again = json.loads(fetch("POST", url, body, {"Content-Type": "application/json", "X-IAPCTL-Token": token})[2])
        cli = self.store.run("refund", target)
        check(again["exitCode"] == cli.returncode == 4, f"refunding twice: the API says {again['exitCode']}, the CLI {cli.returncode}")
        check("error: " + again["error"] == cli.stderr.strip(), f"the API's error {again['error']!r} is the CLI's {cli.stderr.strip()!r}")
        # Headers that keep the page from being framed, sniffed, cached or fed from elsewhere.
        code, headers, _ = fetch("GET", self.server.url)
        check(code == 200, f"GET / got {code}")
        csp = headers.get("Content-Security-Policy", "")
        check("default-src 'none'" in csp and "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, f"CSP: {csp!r}")
        check(headers.get("X-Frame-Options") == "DENY", "X-Frame-Options")
        check("no-store" in headers.get("Cache-Control", ""), "Cache-Control: no-store on the page with the token")

    def test_cross_origin_page_cannot_act(self):
        """A page on another origin (another port of 127.0.0.1) tries to read the API and to act,
        by fetch and by an auto-submitted form; the store must not change."""
        action = self.server.origin + "/ui/api/actions"
        overview = self.server.origin + "/ui/api/overview"
        evil = f"""<!doctype html><title>evil</title>
<form id="f" method="POST" action="{action}" enctype="text/plain" target="sink">
<input name='{{"arguments":["clear","--yes"],"x":"' value='"}}'></form>
<iframe name="sink" id="sink"></iframe>
<script>
const log = [];
const done = () => {{ document.body.dataset.results = JSON.stringify(log); }};
Promise.allSettled([
  fetch("{overview}").then(r => r.text()).then(t => log.push("read:" + t.slice(0, 20)), e => log.push("read-blocked")),
  fetch("{action}", {{method: "POST", headers: {{"Content-Type": "application/json", "X-IAPCTL-Token": "guess"}},
                      body: JSON.stringify({{arguments: ["clear", "--yes"]}})}})
    .then(r => log.push("json-" + r.status), e => log.push("json-blocked")),
  fetch("{action}", {{method: "POST", mode: "no-cors", body: JSON.stringify({{arguments: ["clear", "--yes"]}})}})
    .then(r => log.push("no-cors-" + r.type), e => log.push("no-cors-blocked")),
]).then(() => {{ document.getElementById("sink").onload = () => {{ log.push("form-sent"); done(); }}; document.getElementById("f").submit(); }});
</script>"""

        class Evil(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                data = evil.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
        thread = threading.Thread(target=site.serve_forever, daemon=True)
        thread.start()
        before = (self.store.last_seq(), self.store.run("dump").stdout)
        try:
            home = self.driver.current_window_handle
            self.driver.switch_to.new_window("tab")
            self.driver.get(f"http://127.0.0.1:{site.server_address[1]}/")
            results = self.wait(lambda: self.js("return document.body && document.body.dataset.results"), "the other origin's page finished its attempts")
            outcome = json.loads(results)
            check("read-blocked" in outcome, f"another origin read the API: {outcome}")
            check("json-blocked" in outcome, f"a cross-origin JSON action was not stopped by the preflight: {outcome}")
            check("form-sent" in outcome, f"the form was not even sent: {outcome}")
            self.driver.close()
            self.driver.switch_to.window(home)
        finally:
            site.shutdown()
            site.server_close()
        after = (self.store.last_seq(), self.store.run("dump").stdout)
        check(after == before, f"a page on another origin changed the store ({outcome}): "
              + self.store.run("events", "--since", str(before[0])).stdout[:400])

    def test_screenshot(self):
        if not self.args.screenshot:
            return
        self.driver.set_window_size(1440, 860)
        subscription = [t for t in self.store.dump() if t["productType"] == "autoRenewable"][-1]["transactionIdentifier"]
        self.select(subscription)
        self.js("document.activeElement.blur()")
        self.driver.find_element(By.ID, "tx-grid").click()
        self.select(subscription)
        self.wait(lambda: self.js("return document.querySelectorAll('#inspector-body details').length") >= 4, "the inspector is filled")
        # Fold the transaction's fields and its renewal info, so the decoded JWS, the receipt
        # entry and the events show.
        for section in ["transaction", "subscription"]:
            self.driver.find_element(By.CSS_SELECTOR, f'#inspector-body details[data-section="{section}"] > summary').click()
            self.wait(lambda: not self.js(f"return document.querySelector('#inspector-body details[data-section=\"{section}\"]').open"),
                      f"the {section} section folds")
        self.js("document.getElementById('tx-grid').focus({preventScroll: true})")
        os.makedirs(os.path.dirname(os.path.abspath(self.args.screenshot)), exist_ok=True)
        check(self.driver.save_screenshot(self.args.screenshot), "the screenshot was written")
        with open(self.args.screenshot, "rb") as f:
            check(f.read(8) == b"\x89PNG\r\n\x1a\n", "the screenshot is a PNG")

    def test_subscription_actions(self):
        """Subscriptions view: Auto-Renew Off and On, Renew, Expire, each checked in the store."""
        active = [x for x in self.store.json("subscriptions") if x["status"] == "active"]
        check(active, f"the seeded store has an active subscription: {self.store.json('subscriptions')}")
        sub = active[0]["originalTransactionIdentifier"]
        self.show_view("subscriptions")
        button = f'#subscriptions tr[data-original="{sub}"] button[data-command="%s"]'
        self.click_css(button % "auto-renew", "the subscription offers Auto-Renew Off")
        self.wait(lambda: self.subscription(sub)["autoRenewStatus"] is False, "Auto-Renew Off turns it off in the store")
        self.wait(lambda: self.js(f"return document.querySelector('{button % 'auto-renew'}')?.textContent") == "Auto-Renew On",
                  "the button then offers Auto-Renew On")
        self.click_css(button % "auto-renew", "Auto-Renew On")
        self.wait(lambda: self.subscription(sub)["autoRenewStatus"] is True, "Auto-Renew On turns it on again")
        before = self.subscription(sub)
        self.click_css(button % "renew", "the subscription offers Renew")
        self.wait(lambda: self.subscription(sub)["renewalCount"] == before["renewalCount"] + 1, "Renew renews it in the store")
        renewed = self.subscription(sub)
        check(renewed["expiresTimestamp"] > before["expiresTimestamp"], f"Renew moves the expiry: {before['expiresDate']} -> {renewed['expiresDate']}")
        self.click_css(button % "expire", "the subscription offers Expire")
        self.wait(lambda: self.subscription(sub)["status"] == "expired", "Expire ends it in the store")
        self.wait(lambda: self.js(f"return document.querySelector('#subscriptions tr[data-original=\"{sub}\"] .badge')?.textContent") == "expired",
                  "the subscriptions view shows it expired")
        check(not self.driver.find_elements(By.CSS_SELECTOR, button % "renew"), "an expired subscription offers no Renew")
        self.show_view("transactions")

    def test_refund_request_flow(self):
        """Issue 15: Request Refund, Approve Refund, Reverse Refund and Accept Price, each checked in the store."""
        coin = self.store.json("buy", "com.x.coin42", expect=None)["transactionIdentifier"]
        self.select(coin)
        self.click_action("refund request")
        self.wait(lambda: json.loads(self.store.run("events", expect=0).stdout.splitlines()[-1])["name"] == "refundRequested",
                  "Request Refund opens a request in the store")
        self.click_action("refund approve")
        self.wait(lambda: self.store.transaction(coin)["revocationDate"] is not None, "Approve Refund refunds it in the store")
        check(self.store.transaction(coin).get("revocationType") == "REFUND_FULL",
              f"an approved request is REFUND_FULL: {self.store.transaction(coin)}")
        self.wait_row(coin, refunded=True)
        self.click_action("refund reverse")
        self.wait(lambda: self.store.transaction(coin)["revocationDate"] is None, "Reverse Refund takes the refund back")

        self.store.run("buy", "com.x.vippro", expect=None)
        # Request Price Increase Consent, as Xcode's Transaction Manager has it: the Subscriptions
        # view's form runs 'iapctl price-increase com.x.vippro 10.99' (consent required).
        self.show_view("subscriptions")
        def choose():
            Select(self.driver.find_element(By.ID, "pi-product")).select_by_value("com.x.vippro")
            return True
        self.wait(choose, "the price increase form offers com.x.vippro")
        check(self.driver.find_element(By.ID, "pi-consent").is_selected(), "consent is asked for by default")
        field = self.driver.find_element(By.ID, "pi-price")
        field.clear()
        field.send_keys("abc", Keys.ENTER)
        expected = self.store.run("price-increase", "com.x.vippro", "abc").stderr.strip()
        check(expected.startswith("error: "), f"the CLI refuses a bad price: {expected!r}")
        want = "exit 64: " + expected[len("error: "):]
        self.wait(lambda: self.error() == want, f"the error line says {want!r}, not {self.error()!r}")
        field.clear()
        field.send_keys("10.99", Keys.ENTER)
        self.wait(lambda: [x for x in self.store.json("subscriptions") if x.get("priceIncreaseStatus") == 0],
                  "Request Price Increase makes a subscriber wait for consent in the store")
        pending = [x for x in self.store.json("subscriptions") if x.get("priceIncreaseStatus") == 0]
        sub = pending[0]["originalTransactionIdentifier"]
        check(pending[0]["productIdentifier"] == "com.x.vippro", f"the increase is com.x.vippro's: {pending[0]}")
        self.click_css(f'#subscriptions tr[data-original="{sub}"] button[data-command="price-consent"]',
                       "the subscription offers Accept Price")
        self.wait(lambda: self.subscription(sub).get("priceIncreaseStatus") == 1, "Accept Price accepts it in the store")
        self.wait(lambda: not self.driver.find_elements(
            By.CSS_SELECTOR, f'#subscriptions tr[data-original="{sub}"] button[data-command="price-consent"]'),
            "an accepted increase offers no consent buttons")
        self.show_view("transactions")

    def test_buy_finish_resolve(self):
        """Products' Buy (a purchase from the App Store), Finish, Resolve, Finish All."""
        known = {t["transactionIdentifier"] for t in self.store.dump()}
        self.show_view("products")
        self.click_css('#products button[aria-label="Buy com.x.levelpack from the App Store"]', "Products offers Buy")
        self.wait(lambda: len(self.store.dump()) == len(known) + 1, "Buy adds a transaction to the store")
        bought = [t for t in self.store.dump() if t["transactionIdentifier"] not in known][0]
        check(bought["productIdentifier"] == "com.x.levelpack" and bought["state"] == "purchased",
              f"Buy is a purchase of com.x.levelpack: {bought['productIdentifier']} {bought['state']}")
        names = [json.loads(line)["name"] for line in self.store.run("events", expect=0).stdout.splitlines()[-6:]]
        check("storePaymentAccepted" in names, f"Buy is started from the App Store (promote): {names}")
        self.show_view("transactions")
        txid = bought["transactionIdentifier"]
        self.select(txid)
        self.click_action("finish")
        self.wait(lambda: self.store.transaction(txid)["finished"] is True, f"Finish finishes {txid} in the store")

        self.store.run("config", "set", "interrupted-purchases", "true", expect=0)
        interrupted = self.store.json("buy", "com.x.coin42", expect=None)
        self.store.run("config", "set", "interrupted-purchases", "false", expect=0)
        check(interrupted["state"] == "failed", f"an interrupted purchase fails first: {interrupted['state']}")
        count = len(self.store.dump())
        self.select(interrupted["transactionIdentifier"])
        self.click_action("resolve")
        self.wait(lambda: len(self.store.dump()) == count + 1, "Resolve brings the purchase")
        resolved = self.store.dump()[-1]
        check(resolved["productIdentifier"] == "com.x.coin42" and resolved["state"] == "purchased",
              f"the resolved purchase is purchased: {resolved['productIdentifier']} {resolved['state']}")
        self.wait_row(resolved["transactionIdentifier"], state="purchased")

        check(self.store.json("queue"), "something is unfinished before Finish All")
        self.click_css("#finish-all", "Finish All")
        self.wait(lambda: self.store.json("queue") == [], "Finish All empties the store's queue")
        self.wait(lambda: self.driver.find_element(By.ID, "fact-unfinished").text == "0", "the page counts 0 unfinished")

    def test_settings(self):
        """Settings: a menu (payments-allowed) and a text field (storefront), as 'config set'."""
        config = lambda: self.store.json("config", "get")
        self.show_view("settings")
        self.wait(lambda: self.driver.find_elements(By.ID, "setting-payments-allowed"), "the settings are shown")
        def choose(value):
            Select(self.driver.find_element(By.ID, "setting-payments-allowed")).select_by_value(value)
            return True
        self.wait(lambda: choose("false"), "payments-allowed offers false")
        self.wait(lambda: config()["payments-allowed"] == "false", "the menu sets payments-allowed in the store")
        check(self.store.run("can-pay").returncode == 1, "iapctl can-pay says no after the page turned payments off")
        self.wait(lambda: choose("true"), "payments-allowed offers true")
        self.wait(lambda: config()["payments-allowed"] == "true", "and back on")
        def set_storefront(value):
            field = self.driver.find_element(By.ID, "setting-storefront")
            field.clear()
            field.send_keys(value, Keys.ENTER)
            return True
        self.wait(lambda: set_storefront("GBR"), "the storefront field")
        self.wait(lambda: config()["storefront"] == "GBR", "the field sets the storefront in the store")
        self.wait(lambda: set_storefront("USA"), "the storefront field")
        self.wait(lambda: config()["storefront"] == "USA", "and back")
        self.show_view("transactions")

    def test_clear(self):
        """Clear asks first, then empties the store (as 'iapctl clear --yes')."""
        check(self.store.dump(), "there is something to clear")
        self.click_css("#clear-all", "Clear…")
        self.wait(lambda: self.js("return document.getElementById('confirm').open"), "Clear asks first")
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        self.wait(lambda: self.store.dump() == [], "Enter clears the store")
        self.wait(lambda: self.row_ids() == [], "the list empties")
        self.wait(lambda: self.driver.find_element(By.ID, "tx-empty").is_displayed(), "the list says there is nothing")

    def test_family_sharing(self):
        """Family Sharing on its own store (Fixtures/family/catalog.json) and server: the sidebar's
        form adds a member, a shareable purchase made by the CLI gives the member a FAMILY_SHARED
        transaction that the member filter lists (live), its inspector shows the member's own JWS
        and receipt entry and offers no refund, and Remove (asked first) takes the member out."""
        family = Store(self.store.iapctl, os.path.join(self.args.workdir, "family-store"))
        family.run("init", "--catalog", self.args.family_catalog, expect=0)
        family.run("buy", "com.x.coin42", expect=0)
        server = UIServer(family)
        try:
            self.driver.get(server.url)
            self.wait(lambda: self.js("return document.body.dataset.ready") == "true", "the family store's page is ready")
            check(self.driver.find_element(By.ID, "f-member-label").get_attribute("hidden") is not None,
                  "the member filter is hidden while there is no family")
            field = self.driver.find_element(By.ID, "family-name")
            field.send_keys("alex", Keys.ENTER)
            self.wait(lambda: [m["name"] for m in family.json("family", "list")] == ["alex"], "Add puts alex in the store's family")
            self.wait(lambda: self.driver.find_element(By.ID, "f-member-label").get_attribute("hidden") is None,
                      "the member filter shows once there is a member")
            purchase = family.json("buy", "com.x.noads")["transactionIdentifier"]
            self.wait_row(purchase, state="purchased")

            def member_rows():
                return [t["transactionIdentifier"] for t in reversed(json.loads(family.run("dump", "--member", "alex", expect=0).stdout))]
            shared = member_rows()
            check(len(shared) == 1, f"iapctl dump --member alex: {shared}")
            def choose():
                Select(self.driver.find_element(By.ID, "f-member")).select_by_value("alex")
                return True
            self.wait(choose, "the member filter offers alex")
            self.wait(lambda: self.row_ids() == shared, f"the member filter lists alex's transactions {shared}, not {self.row_ids()}")
            # Live: the account's shareable subscription reaches alex's list without a reload.
            self.js("window.__sameDocument = 'yes'")
            family.run("buy", "com.x.vippro", expect=0)
            self.wait(lambda: len(member_rows()) == 2, "the subscription is shared with alex")
            self.wait(lambda: self.row_ids() == member_rows(), f"alex's new transaction appears live: {self.row_ids()}")
            check(self.js("return window.__sameDocument") == "yes", "the page was reloaded")
            # alex's copy of the subscription: the inspector has alex's subscription (subscriptions --member).
            self.select(member_rows()[0])
            self.wait(lambda: self.js("return document.querySelector('#inspector-body details[data-section=\"subscription\"]')?.textContent || ''").find("FAMILY_SHARED") >= 0,
                      "the inspector of alex's subscription shows alex's shared subscription")

            txid = shared[0]
            row = self.row(txid)
            check(row.get_attribute("data-state") == "purchased", "alex's copy is purchased")
            self.select(txid)
            self.wait(lambda: "FAMILY_SHARED · alex" in self.driver.find_element(By.ID, "inspector-subtitle").text,
                      "the inspector names the ownership and the member")
            fields = self.js("return [...document.querySelectorAll('#inspector-body details[data-section=\"transaction\"] dt')].map(e => e.textContent)")
            check("inAppOwnershipType" in fields and "familyMember" in fields, f"the inspector lists the family fields: {fields}")
            expected = json.loads(family.run("jws", txid, "--member", "alex", "--json", expect=0).stdout)
            self.wait(lambda: self.js("return document.getElementById('jws-token')?.textContent") == expected["signedTransactionInfo"],
                      "the inspector's JWS is 'iapctl jws TXID --member alex'")
            payload = json.loads(self.driver.find_element(By.CSS_SELECTOR, 'pre[aria-label="JWS payload"]').text)
            check(payload["inAppOwnershipType"] == "FAMILY_SHARED", f"the signed payload is FAMILY_SHARED: {payload}")
            receipt = self.driver.find_element(By.CSS_SELECTOR, '#inspector-body details[data-section="receipt"]').text
            check(txid in receipt, f"alex's receipt entry is shown: {receipt!r}")
            check(not self.driver.find_elements(By.CSS_SELECTOR, '#inspector-actions button[data-command^="refund"], #inspector-actions button[data-command="delete"]'),
                  "a member's copy offers no refund or delete (the CLI refuses them)")

            # Remove asks first, then alex leaves: the filter goes back to the account's list.
            self.click_css('#family-members button[aria-label="Remove alex from the family"]', "the sidebar offers Remove for alex")
            self.wait(lambda: self.js("return document.getElementById('confirm').open"), "Remove asks first")
            self.driver.switch_to.active_element.send_keys(Keys.ENTER)
            self.wait(lambda: family.json("family", "list") == [], "Enter removes alex from the store's family")
            names = [json.loads(line)["name"] for line in family.run("events", expect=0).stdout.splitlines()]
            check(names.count("familyTransactionRevoked") == 2, f"leaving revokes alex's two transactions: {names[-6:]}")
            self.wait(lambda: self.driver.find_element(By.ID, "f-member-label").get_attribute("hidden") is not None,
                      "the member filter hides again")
            account = [t["transactionIdentifier"] for t in reversed(family.dump())]
            self.wait(lambda: self.row_ids() == account, f"the list is the account's again: {self.row_ids()} (want {account})")
            check(not self.error(), f"no error line: {self.error()!r}")
        finally:
            server.stop()

    # -- running ---------------------------------------------------------------------------

    def seed(self):
        if self.args.url:
            return
        self.store.run("init", "--bundle-id", "com.example.coins", "--app-version", "1.2", expect=0)
        self.store.run("buy", "com.x.coin42", "--account", "Handsome Jon", "--quantity", "2", expect=0)
        self.store.run("buy", "com.x.vip2", expect=0)
        self.store.run("buy", "com.x.levelpack", expect=0)
        self.store.run("finish", "2000000000000001", expect=0)
        self.store.run("clock", "advance", "P3M", expect=0)

    def run(self):
        chromium = find_tool("chromium", self.args.chromium, "chromium")
        chromedriver = find_tool("chromedriver", self.args.chromedriver, "chromium-driver")
        self.seed()
        self.server = UIServer(self.store, self.args.url)
        self.driver = start_browser(chromium, chromedriver)
        tests = [
            self.test_page_loads,
            self.test_cli_purchase_appears_live,
            self.test_refund_click,
            self.test_ask_to_buy_approve,
            self.test_decline_and_error_text,
            self.test_delete_confirms,
            self.test_keyboard,
            self.test_forged_actions_refused,
            self.test_cross_origin_page_cannot_act,
            self.test_screenshot,
            self.test_subscription_actions,
            self.test_refund_request_flow,
            self.test_buy_finish_resolve,
            self.test_settings,
            self.test_clear,
            self.test_family_sharing,
        ]
        passed = failed = 0
        try:
            for test in tests:
                name = test.__name__[len("test_"):]
                started = time.monotonic()
                try:
                    test()
                    passed += 1
                    print(f"ok    {name} ({time.monotonic() - started:.2f} s)", flush=True)
                except Exception as error:
                    failed += 1
                    detail = str(error) if isinstance(error, Failure) else traceback.format_exc()
                    print(f"FAIL  {name}: {detail}", flush=True)
                    try:
                        shot = os.path.join(self.args.workdir, f"failure-{name}.png")
                        self.driver.save_screenshot(shot)
                        print(f"      screenshot: {shot}; status {self.status()!r}; error {self.error()!r}", flush=True)
                    except Exception:
                        pass
                    if name == "page_loads":
                        break
        finally:
            self.driver.quit()
            try:
                self.server.stop()
            except Failure as error:
                failed += 1
                print(f"FAIL  stop: {error}", flush=True)
        print(f"{passed} passed, {failed} failed")
        return 0 if failed == 0 else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iapctl", required=True, help="the iapctl binary")
    parser.add_argument("--workdir", required=True, help="a directory for the store, logs and failure screenshots")
    parser.add_argument("--store", help="the store of a server given with --url (default: WORKDIR/store, created)")
    parser.add_argument("--url", help="use this running server instead of starting 'iapctl ui'")
    parser.add_argument("--screenshot", help="write a PNG of the page here")
    parser.add_argument("--family-catalog", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Fixtures", "family", "catalog.json"),
                        help="the Family Sharing catalog (default: Fixtures/family/catalog.json)")
    parser.add_argument("--chromium", help="the Chromium binary (default: chromium on PATH)")
    parser.add_argument("--chromedriver", help="the ChromeDriver binary (default: chromedriver on PATH)")
    args = parser.parse_args()
    sys.exit(UITest(args).run())


if __name__ == "__main__":
    main()
