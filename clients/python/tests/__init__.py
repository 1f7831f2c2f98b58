"""Tests of the svc Python client: offline unit tests, and tests against real daemons (the
scenario that test/integration/client-python.e2e.test.ts starts and names in SVC_CLIENT_SCENARIO)."""
