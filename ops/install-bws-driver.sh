#!/usr/bin/env bash
# Install the MDBTools ODBC driver, which reads Bridgemate .bws files about 10x faster than the
# pure-Python access-parser (ddrank uses it when present: store/inputs/bws_odbc.py). Debian/Ubuntu:
# needs root (or sudo) and the package mirror.
set -euo pipefail
if command -v odbcinst >/dev/null && odbcinst -q -d 2>/dev/null | grep -q '^\[MDBTools\]'; then
  echo "the MDBTools ODBC driver is already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "installing odbc-mdbtools and unixodbc with apt-get ..."
$SUDO apt-get update -qq || true
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq odbc-mdbtools unixodbc >/dev/null
odbcinst -q -d | grep -q '^\[MDBTools\]'
echo "done: the MDBTools ODBC driver is installed"
