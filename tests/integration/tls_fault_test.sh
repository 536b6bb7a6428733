#!/usr/bin/env bash
# fault_injection_test.sh's faults over HTTPS, for the HTTP/1.1 client's TlsSocket (OpenSSL on the
# socket): each is still one exact failure kind, counts add up, no hang. The server's closes come
# without close_notify, its resets are TCP RSTs, its garbage comes inside TLS records.
# TLS_FAULT_CASES='reset stall' runs only the cases whose names start so.
# shellcheck disable=SC2034  # both read by fault_injection_test.sh, sourced below
FAULT_TLS=1 FAULT_CASES=${TLS_FAULT_CASES:-}
source "$(dirname "$0")/fault_injection_test.sh" "$@"
