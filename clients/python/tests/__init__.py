"""Tests of the svc Python client: offline unit tests, and tests against real daemons (the
scenario that test/integration/client-python.test.ts starts and names in SVC_CLIENT_SCENARIO)."""
