#!/bin/sh
# Regenerates the iapctl TEST ONLY P-256 signing chain: root.pem (self-signed CA) ->
# intermediate.pem (CA, Apple's WWDR marker OID) -> leaf.pem (Apple's receipt-signer marker OID),
# plus leaf-key.pem. Every certificate is valid from 2000-01-01 to 2099-12-31 so tests never expire.
# openssl 3.0's `req -x509 -days` cannot backdate, so this uses `openssl ca -startdate/-enddate`.
# Keys are fresh on every run; commit the outputs together.
set -eu
cd "$(dirname "$0")"
openssl version >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/new"
: >"$work/index.txt"
printf '1001\n' >"$work/serial"

cat >"$work/ca.cnf" <<CONF
[ ca ]
default_ca = test_ca

[ test_ca ]
dir = $work
database = \$dir/index.txt
new_certs_dir = \$dir/new
serial = \$dir/serial
default_md = sha256
policy = policy_any
unique_subject = no
copy_extensions = none
email_in_dn = no
preserve = yes
utf8 = yes
string_mask = utf8only

[ policy_any ]
commonName = supplied
organizationName = supplied
organizationalUnitName = optional
countryName = optional

[ req ]
distinguished_name = req_dn
utf8 = yes
string_mask = utf8only

[ req_dn ]

[ v3_root ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash

[ v3_intermediate ]
basicConstraints = critical, CA:TRUE, pathlen:0
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
# Apple Worldwide Developer Relations intermediate marker, NULL value (not critical, so openssl verify accepts it).
1.2.840.113635.100.6.2.1 = DER:0500

[ v3_leaf ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
# Apple receipt / JWS signer marker, NULL value.
1.2.840.113635.100.6.11.1 = DER:0500
CONF

org="iapctl TEST ONLY — not Apple"
dates="-startdate 20000101000000Z -enddate 20991231235959Z"

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }
csr() { openssl req -new -config "$work/ca.cnf" -utf8 -key "$1" -subj "$2" -out "$3"; }

key "$work/root-key.pem"
csr "$work/root-key.pem" "/O=$org/OU=Test Root CA/CN=iapctl TEST ONLY — not Apple Root CA" "$work/root.csr"
# shellcheck disable=SC2086
openssl ca -batch -notext -utf8 -config "$work/ca.cnf" -selfsign -keyfile "$work/root-key.pem" \
    -in "$work/root.csr" -out root.pem -extensions v3_root $dates 2>/dev/null

key "$work/intermediate-key.pem"
csr "$work/intermediate-key.pem" "/O=$org/OU=Test Intermediate CA/CN=iapctl TEST ONLY — not Apple WWDR" "$work/intermediate.csr"
# shellcheck disable=SC2086
openssl ca -batch -notext -utf8 -config "$work/ca.cnf" -cert root.pem -keyfile "$work/root-key.pem" \
    -in "$work/intermediate.csr" -out intermediate.pem -extensions v3_intermediate $dates 2>/dev/null

key leaf-key.pem
csr leaf-key.pem "/O=$org/OU=Test Receipt Signer/CN=iapctl TEST ONLY — not Apple StoreKit Signer" "$work/leaf.csr"
# shellcheck disable=SC2086
openssl ca -batch -notext -utf8 -config "$work/ca.cnf" -cert intermediate.pem -keyfile "$work/intermediate-key.pem" \
    -in "$work/leaf.csr" -out leaf.pem -extensions v3_leaf $dates 2>/dev/null

openssl verify -CAfile root.pem -untrusted intermediate.pem leaf.pem
