#!/usr/bin/env bash
# The pynetbox and Ansible client tests (test/face/pynetbox*.e2e.spec.ts, ansible*.e2e.spec.ts)
# against the newest client releases from PyPI, beside Debian's packages that the tests use by
# default. A virtualenv gets pynetbox and the `ansible` bundle (ansible-core with the community
# collections, netbox.netbox among them: the Galaxy server is not reachable from these machines,
# PyPI is), and the tests are pointed at it through PYNETBOX_PYTHON, ANSIBLE_PLAYBOOK and
# ANSIBLE_MODULE_PYTHON.
#
#   scripts/client-tests-pypi.sh                 newest releases, every client test
#   scripts/client-tests-pypi.sh --install-only  only build the virtualenv and print the versions
#
# Settings (environment):
#   CLIENTS_VENV      where the virtualenv is kept (default .clients-venv/, reused when present)
#   PYNETBOX_SPEC     pip requirement for pynetbox (default: pynetbox, the newest)
#   ANSIBLE_SPEC      pip requirement for the bundle (default: ansible, the newest)
#   CLIENT_TESTS      test files to run (default: every pynetbox and Ansible test)
#
# Exits 0 with a message, running nothing, when a virtualenv cannot be made or PyPI cannot be
# reached (as the tests skip where Debian's packages are missing); with CLIENTS_REQUIRED=1 (CI)
# it exits 3 instead. Otherwise it exits with ava's status.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${CLIENTS_VENV:-.clients-venv}
unavailable=0; [ "${CLIENTS_REQUIRED:-0}" = 1 ] && unavailable=3
PYNETBOX_SPEC=${PYNETBOX_SPEC:-pynetbox}
ANSIBLE_SPEC=${ANSIBLE_SPEC:-ansible}
started=$(date +%s)

if [ ! -x "$VENV/bin/python" ]; then
  if ! python3 -m venv "$VENV" >/dev/null 2>&1; then
    echo "client tests from PyPI skipped: python3 cannot make a virtualenv (apt-get install -y python3-venv)"
    exit "$unavailable"
  fi
fi
# pytz: the collection's nb_inventory plugin imports it (Debian's ansible package depends on it)
if ! timeout 1200 "$VENV/bin/pip" install --quiet --disable-pip-version-check --upgrade "$PYNETBOX_SPEC" "$ANSIBLE_SPEC" pytz; then
  echo "client tests from PyPI skipped: pip could not install $PYNETBOX_SPEC and $ANSIBLE_SPEC"
  exit "$unavailable"
fi
installed=$(date +%s)

pynetbox_version=$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("pynetbox"))')
core_version=$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("ansible-core"))')
collection_version=$("$VENV/bin/ansible-galaxy" collection list netbox.netbox --format json 2>/dev/null \
  | "$VENV/bin/python" -c 'import json, sys; print(next((c["netbox.netbox"]["version"] for c in json.load(sys.stdin).values() if "netbox.netbox" in c), "missing"))')
echo "PyPI clients in $VENV ($((installed - started)) s): pynetbox $pynetbox_version, ansible-core $core_version, netbox.netbox $collection_version"
[ "${1:-}" = "--install-only" ] && exit 0

tests=${CLIENT_TESTS:-$(ls test/face/pynetbox*.e2e.spec.ts test/face/ansible*.e2e.spec.ts | tr '\n' ' ')}
# shellcheck disable=SC2086 # the list is one file name per word
PYNETBOX_PYTHON="$PWD/$VENV/bin/python" ANSIBLE_PLAYBOOK="$PWD/$VENV/bin/ansible-playbook" ANSIBLE_MODULE_PYTHON="$PWD/$VENV/bin/python" \
  npx ava --concurrency 2 $tests
echo "client tests with the PyPI clients took $(( $(date +%s) - started )) s"
