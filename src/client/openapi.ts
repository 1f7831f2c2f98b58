// GENERATED FILE: do not edit. The types of the svc API client, generated from openapi.json
// by openapi-typescript 7.13.0 (Node API: openapiTS + astToString) with `npm run client:types`
// (scripts/client-types.mjs). test/unit/client-types.test.ts fails when this file differs from
// what that command writes.
export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: what this service is and implements
         * @description Never rate limited. Lists the operator settings that weaken a default (relaxations).
         */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: the store is open and its schema current
         * @description Never rate limited. Does not certify write durability, disk capacity, backups or external health.
         */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Status of each component */
        get: operations["status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics: the daemon's requests, resolutions, fetches, database calls and process
         * @description The text exposition format 0.0.4 (docs/operations.md#metrics). Operator only, like the monitoring routes: `Authorization: Bearer <SVC_ADMIN_TOKEN>`. Direct profile only (404 with --public); never rate limited. SVC_METRICS_LISTEN serves the same text on a listener of its own, without a token.
         */
        get: operations["metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/resolve/{did}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Resolve a DID and report its evidence
         * @description The enriched resolution: the document, the seven dimensions, the evidence, the graph and the trace. did:webvh takes the version options and draws on the intensive budget.
         */
        get: operations["resolve"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/stream/{did}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Resolve a DID, streaming each stage as it completes (SSE)
         * @description text/event-stream. Frames in order: `stage` (zero or more, data: a TraceStage, as each stage completes), then `result` (data: the EnrichedResolution) or `error` (data: the problem, with its trace; a resolution past the time limit ends with the 408 problem), then `done` (data: {}). Problems of the resolution itself arrive as an `error` frame in a 200 stream; only the request's own problems (query, budget, capacity) are statuses. x-svc-sse-frames gives the data schema of each event.
         */
        get: operations["stream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dereference/{didUrl}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Dereference a DID URL
         * @description a fragment gives the verification method or service (application/json), `service` (+ `relativeRef`) the endpoint URL (text/uri-list), a version parameter the did:webvh version (application/did). The request query is the DID URL query (service, relativeRef, versionId, versionTime, versionNumber); a path is 501 FEATURE_NOT_SUPPORTED.
         */
        get: operations["dereference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/fast-verify/did/{did}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The short verdict of a DID
         * @description the few fields a caller needs to decide, projected from the resolution; served from the cache when fresh. A deactivated DID is a 200 with outcome DEACTIVATED.
         */
        get: operations["fastVerifyDid"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/graph/{did}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The evidence graph of a DID
         * @description the verdict and the graph of the resolution.
         */
        get: operations["graph"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/history/{did}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The observation history of a DID
         * @description what was retrieved and when, newest first (records, not proofs of history).
         */
        get: operations["history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/kept-log/{did}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The kept did:webvh log of a DID
         * @description the verified entries of the did:webvh log as svc kept them (JSON Lines, each line as the host published it), so that the log stays checkable after its host deletes or rewrites it: `svc resolve <did> --log kept.jsonl` verifies it again. Kept only by resolutions with a store, at most 1,000 entries and 4 MiB per DID.
         */
        get: operations["keptLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/diff/{did}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The semantic diff of two observed documents of a DID
         * @description without from/to, the latest two distinct observations.
         */
        get: operations["diff"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/credentials/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a verifiable credential
         * @description A failed check is a 200 result (status other than VALID); only VALID means accepted.
         */
        post: operations["verifyCredential"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/fast-verify/jws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a compact JWS against the DID in its kid
         * @description The DID in kid is resolved; the key must be authorised for the relationship (default assertionMethod, then authentication). A failed check is a 200 result.
         */
        post: operations["fastVerifyJws"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/policies/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Evaluate a policy against the evidence of a DID
         * @description The DID is resolved (a DID that does not resolve is evidence, not an error) and the optional credential verified; a failing policy is a 200 result.
         */
        post: operations["evaluatePolicy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/presentations/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a verifiable presentation and the credentials it carries
         * @description The presentation's proof (Data Integrity with proofPurpose authentication, vp+jwt, or a VC-JWT 1.1 vp token), its challenge and domain against the caller's, and each embedded credential as /v1/credentials/verify verifies one. A failed check is a 200 result (status other than VALID); only VALID means accepted.
         */
        post: operations["verifyPresentation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/credentials/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a verifiable credential (W3C VC-API binding)
         * @description VC-API's verifyCredential: the same verification as /v1/credentials/verify, answered as a VerificationResult. 200 only when verified (svc status VALID); a credential that does not verify is 400 with verified false and the reasons in errors.
         */
        post: operations["verifyCredentialVcApi"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/presentations/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a verifiable presentation (W3C VC-API binding)
         * @description VC-API's verifyPresentation: the same verification as /v1/presentations/verify (options.challenge and options.domain are the verifier's), answered as a VerificationResult. 200 only when verified (svc status VALID: the presentation and every credential in it); anything else is 400 with verified false and the reasons in errors.
         */
        post: operations["verifyPresentationVcApi"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/verify-delegation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a delegation chain, and register it on request
         * @description Any chain status is a 200 result; only VALID grants anything. register: true stores a VALID chain; registrationReason says why a requested registration did not happen.
         */
        post: operations["verifyDelegation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Decide whether a delegation chain allows one tool call
         * @description Stateless. ALLOW only when the chain is VALID and a leaf capability grants the tool. Any error must be read as DENY.
         */
        post: operations["authorize"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agents/verify-tool": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Decide a tool call against the registered delegation chains
         * @description Answers from registered, unexpired chains verified since the daemon started; without one the answer is DENY. Any error must be read as DENY.
         */
        get: operations["verifyTool"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mcp/inspect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inspect an MCP server: protocol, tools, prompts, resources, fingerprints, risk signals, drift
         * @description AUTH_REQUIRED, risk signals and drift are 200 results; a problem means no inspection could be produced.
         */
        get: operations["inspectMcp"];
        put?: never;
        /**
         * Inspect an MCP server and compare it with an approved baseline
         * @description As GET, but drift compares with the entry of the baseline approved from this endpoint (an svc-mcp-baseline document, as svc mcp approve writes it) instead of the last stored inventory: the drift check is FAIL on any difference. A difference is a 200 result.
         */
        post: operations["inspectMcpWithBaseline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/a2a/inspect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inspect an A2A agent card: schema, interfaces, signatures
         * @description Warnings and a failed signature are 200 results; a problem means no card could be inspected.
         */
        get: operations["inspectA2a"];
        put?: never;
        /**
         * Inspect an A2A agent card and compare it with an approved baseline
         * @description As GET, and the card is compared with the entry of the baseline approved from the card's URL (an svc-a2a-baseline document, as svc a2a approve writes it): a ninth check, drift, is FAIL on any difference of the card, its skills, interfaces or signing keys. A difference is a 200 result.
         */
        post: operations["inspectA2aWithBaseline"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/1.0/identifiers/{did}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Resolve a DID (W3C DID Resolution HTTPS binding)
         * @description Content negotiation (Accept, or `accept` in a POST body): application/did-resolution (or application/ld+json with the DID-resolution profile) gives the resolution result; absent, *\/*, application/json, application/did, application/did+json, application/did+ld+json or application/ld+json the DID document alone (application/did). A deactivated DID is 410 with the full result. Errors with a /1.0 status are the resolution result with the problem in didResolutionMetadata.error (application/did-resolution); the others are problem+json. An identifier with `/`, `?` or `#` (written %23) is dereferenced: with no Accept, application/json or only wildcards the dereferencing result as application/json (svc's own shape, as on /v1/dereference); application/did-url-dereferencing gives the same result under that media type; application/did (did+json, did+ld+json) gives a version's DID document alone; a service endpoint (text/uri-list) asked for as application/did-url-dereferencing or text/uri-list is 303 to the endpoint with an empty body.
         */
        get: operations["resolveW3c"];
        put?: never;
        /**
         * Resolve a DID (W3C DID Resolution HTTPS binding), options in the body
         * @description Content negotiation (Accept, or `accept` in a POST body): application/did-resolution (or application/ld+json with the DID-resolution profile) gives the resolution result; absent, *\/*, application/json, application/did, application/did+json, application/did+ld+json or application/ld+json the DID document alone (application/did). A deactivated DID is 410 with the full result. Errors with a /1.0 status are the resolution result with the problem in didResolutionMetadata.error (application/did-resolution); the others are problem+json. An identifier with `/`, `?` or `#` (written %23) is dereferenced: with no Accept, application/json or only wildcards the dereferencing result as application/json (svc's own shape, as on /v1/dereference); application/did-url-dereferencing gives the same result under that media type; application/did (did+json, did+ld+json) gives a version's DID document alone; a service endpoint (text/uri-list) asked for as application/did-url-dereferencing or text/uri-list is 303 to the endpoint with an empty body.
         */
        post: operations["resolveW3cPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The front page: what svc is, a search box, examples
         * @description An HTML page. With `did`, the search box was used: 303 to the dossier of that DID (/d/{did}).
         */
        get: operations["homePage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/d/{did}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The web dossier of a DID: four levels, from verdict to time machine
         * @description An HTML page (the permalink of an identifier): 1 verdict and dimensions, 2 evidence graph, 3 execution telemetry, 4 substrate inspector and time machine (observations, and the diff of `from` → `to`, by default the latest two). With `Accept: application/json` the same URL answers the enriched resolution, as /v1/resolve does. Budget as /v1/resolve: standard, intensive for did:webvh.
         */
        get: operations["dossierPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The web view of an MCP inspection: status, checks, tools, prompts, resources, drift, transcript
         * @description Without `endpoint`: a page with a form to type one (no budget). With it: the endpoint is inspected exactly as GET /v1/mcp/inspect does (the same core call, limits, egress rules and stored drift; intensive budget) and the result shown as a page: headline and status, the server as it describes itself, the six checks, each tool, prompt, resource and resource template with its fingerprint, drift and risk signals (items with signals first), the drift by kind, the limitations and the transcript. With `Accept: application/json` the same URL answers the McpInspection. A problem (no inspection could be produced) is a page for a client that prefers HTML.
         */
        get: operations["mcpInspectionPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A stylesheet, script or the icon of the web dossier, named by its content's hash
         * @description Immutable: a new build has new names. Cached for a year; gzip when accepted; 304 for a matching If-None-Match.
         */
        get: operations["webAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/claims/challenges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask for a challenge to prove control of a DID
         * @description Three free ways: sign the challenge with a key under authentication (signature), host the token at /.well-known/svc-claim.txt (well-known; did:web and did:webvh), or publish it in a DNS TXT record _svc-claim.<host> (dns; did:web and did:webvh). purpose "list" opts the DID in to the directory once the proof holds; "unlist" opts it out. A challenge holds for expiresInSeconds, allows 5 verification attempts and proves once. Of the 10000 pending challenges the service keeps, one client holds at most 20 and one DID at most 10, unless the client asking holds none of the DID's (defaults; 429 past a share).
         */
        post: operations["createClaimChallenge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/claims/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit the proof of a challenge
         * @description Checks the proof now (the DID resolved afresh for a signature; the file or the TXT record fetched through the egress policy). A proof that does not hold is a 200 with verified: false and a refusal (code and reason), never an error. A proof that holds becomes a claim; its purpose is applied (list: the DID is listed; unlist: it is not).
         */
        post: operations["verifyClaim"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/claims/{did}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current proofs of control of a DID
         * @description Each claim states what it proves ("someone able to sign with this key / publish on this domain / in this DNS zone acted on <date>") and what it does not (legal identity, ongoing control). Only current, unexpired claims; the latest lapsed ones are listed apart with their reason.
         */
        get: operations["listClaims"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/directory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Identifiers whose controllers proved control and opted in
         * @description Oldest listing first, in a stable order: a page ends with nextCursor (null on the last page), and listings added meanwhile come after it, so paging neither repeats nor skips. A listing lapses with the claim behind it. Listings cannot be bought: only a proven controller opts in (a proof with purpose "list").
         */
        get: operations["listDirectory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitoring/watches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the watches
         * @description Operator only. Active watches, oldest first, each webhook URL redacted to origin and path; never a secret.
         */
        get: operations["listWatches"];
        put?: never;
        /**
         * Watch an identifier, an MCP endpoint or an A2A agent card: its changes are posted to a webhook
         * @description Operator only. The body names exactly one subject: did (resolved at each check), mcpEndpoint (a Streamable HTTP MCP endpoint: its tools, prompts and resources inspected) or a2aCard (an agent's origin or card URL: its card inspected); for the last two, baseline may carry an approved baseline file (svc mcp approve / svc a2a approve) that the first check compares with, else the first check is the baseline. The webhook URL, the endpoint and the card must pass the egress policy (https, a public address) now and at every use. intervalSeconds defaults to 3600. The signing secret is in this answer only.
         */
        post: operations["createWatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitoring/watches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Stop watching
         * @description Operator only. The watch stops; its queued events (PENDING, RETRY) become CANCELLED. Events already delivered or dead-lettered are kept.
         */
        delete: operations["deleteWatch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitoring/watches/{id}/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a watch now
         * @description Operator only. Resolves the DID afresh and compares it with the watch's baselines, as the poller does. changed: whether the check emitted an event; eventId: the first of them (evt_<n>), or null; delivery: queued when an event waits for delivery, none otherwise (also while a receiver has disabled the webhook: its events are kept CANCELLED). The first check of a watch only establishes its baseline.
         */
        post: operations["checkWatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitoring/watches/{id}/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a watch's webhook again (after a 410 Gone), optionally at a new URL
         * @description Operator only. A receiver that answered 410 Gone disabled the webhook: the watch was still checked, but no event was sent (its events were kept CANCELLED). This clears webhookDisabled; events from the next check on are delivered (earlier ones stay CANCELLED: replay them to send them). webhookUrl, when given, replaces the URL and must pass the egress policy as at registration; the signing secret stays. Also 200 for a webhook that was not disabled.
         */
        post: operations["enableWatchWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitoring/events/{id}/attempts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An event's delivery attempts and what each decided
         * @description Operator only. Every attempt of the event (evt_<n>), oldest first, replays included: when it was sent, the receiver's status, the decision (DELIVERED, RETRY, DEAD_LETTER, WEBHOOK_DISABLED, CANCELLED), a one-line detail (a 3xx not followed, a Retry-After honoured or capped) and the next attempt's time.
         */
        get: operations["listEventAttempts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitoring/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List monitor events and their delivery state
         * @description Operator only. Newest first, at most 200; watchId narrows them to one watch (removed watches included).
         */
        get: operations["listMonitorEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitoring/events/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a dead-lettered or cancelled event
         * @description Operator only. A new delivery of the same event (the same evt_ id and envelope bytes, fresh signatures): PENDING, five fresh attempts, due now; its replays count goes up by one. Only DEAD_LETTER or CANCELLED events, of an active watch whose webhook is enabled. svc never replays by itself: only this route (and the watch's replay) does.
         */
        post: operations["replayMonitorEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitoring/watches/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a watch's dead letters since an instant
         * @description Operator only. Every DEAD_LETTER event of the watch created at or after `since` is queued again in one transaction, as a replay of each (same ids and bytes, five fresh attempts). None is an empty list, not an error. Cancelled events are replayed one at a time (POST /v1/monitoring/events/{id}/replay). svc never replays by itself.
         */
        post: operations["replayWatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitoring/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Gauges of the monitoring tables
         * @description Operator only. Counts and limits, no payloads or secrets. A storage failure is a 500, never zeros.
         */
        get: operations["monitoringStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/monitoring/retention-preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Preview what a retention cleanup could remove (nothing is deleted)
         * @description Operator only. Read only: counts of the observations, MCP observations and settled monitor events (DELIVERED, CANCELLED, without a claim) strictly before the cutoff `before`, with the rules that keep rows and the preview's limitations. The latest row per DID and per endpoint, rows seen again at or after the cutoff, rows with malformed timestamps, unsettled and dead-lettered events are never counted. Counts only: no identifier or payload. A storage failure is a 500, never zeros.
         */
        get: operations["monitoringRetentionPreview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commercial/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tenants, their owners and projects
         * @description Operator only (commercial mode). Every tenant, oldest first, with its owners and projects.
         */
        get: operations["listTenants"];
        put?: never;
        /**
         * Create a tenant with its first owner
         * @description Operator only (commercial mode). The owner (a DID) is attached as the tenant's first owner in the same transaction.
         */
        post: operations["createTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commercial/tenants/{tenant}/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a project of a tenant
         * @description Operator only (commercial mode). Project names are unique within a tenant: a duplicate is 400 INVALID_REQUEST (the error table has no conflict code).
         */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commercial/tenants/{tenant}/owners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attach an owner to a tenant
         * @description Operator only (commercial mode). Idempotent: attaching an owner again changes nothing. The answer lists the owners after it.
         */
        post: operations["attachOwner"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commercial/tenants/{tenant}/owners/{subject}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Detach an owner from a tenant
         * @description Operator only (commercial mode). The subject (a DID, percent-encoded in the path) stops owning the tenant; owner actions in flight that commit after it fail. When it owns no other tenant, its owner sessions are revoked too. Removing the last owner is allowed.
         */
        delete: operations["removeOwner"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commercial/projects/{project}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A project's usage counters
         * @description Operator only (commercial mode). Keyed requests served, by month (YYYY-MM, UTC, on the daemon's clock). Each daemon writes its counts at least once a second; this daemon's own are written before the answer. Nothing is charged (billing is a mock).
         */
        get: operations["projectUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commercial/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the billing plans
         * @description Operator only (commercial mode). Billing is a mock: plans price what would be charged; no payment provider is involved.
         */
        get: operations["listPlans"];
        put?: never;
        /**
         * Create or replace a billing plan
         * @description Operator only (commercial mode). A plan of the same id is replaced (its price applies to months closed from now on).
         */
        post: operations["savePlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commercial/tenants/{tenant}/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Subscribe a tenant to a plan
         * @description Operator only (commercial mode). Replaces the tenant's subscription; the plan must be active.
         */
        post: operations["subscribeTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commercial/tenants/{tenant}/close-period": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a tenant's month into an invoice
         * @description Operator only (commercial mode). One transaction: an OPEN invoice of the plan's monthly price and one CHARGE ledger entry stating the month's keyed requests (every project of the tenant) against the plan's included ones. Once per month and tenant. Nothing is collected: billing is a mock.
         */
        post: operations["closePeriod"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commercial/tenants/{tenant}/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A tenant's subscription, invoices and ledger
         * @description Operator only (commercial mode). Billing is a mock: what would be charged, recorded; nothing is collected.
         */
        get: operations["tenantBilling"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects/{project}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a project's keys (owner session)
         * @description Session core (through the cookie gateway). Metadata only, newest first: never a secret or a digest.
         */
        get: operations["sessionListKeys"];
        put?: never;
        /**
         * Issue a project key (owner session)
         * @description Session core (through the cookie gateway). The secret is in this answer only; the daemon keeps its SHA-256 digest. At most 10 active and 100 retained keys per project.
         */
        post: operations["sessionIssueKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects/{project}/keys/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a project key (owner session)
         * @description Session core (through the cookie gateway). The key stops authenticating at once, on every daemon of the database. Idempotent for a key already revoked or rotated.
         */
        delete: operations["sessionRevokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects/{project}/keys/{key}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a project key (owner session)
         * @description Session core (through the cookie gateway). Atomic: the old key becomes ROTATED and a new ACTIVE one replaces it, or nothing changes (the old key stays authorised). The new secret is in this answer only.
         */
        post: operations["sessionRotateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The session owner's projects
         * @description svc's addition to the owner-session routes: the projects of every tenant the session's owner owns, oldest first. Reached through the cookie gateway only (its session cookie; the gateway presents the verified-session bridge).
         */
        get: operations["listOwnerProjects"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects/{project}/watches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a project's watches (owner session)
         * @description Session core (through the cookie gateway). Active watches, oldest first, and whether this daemon runs the automatic worker.
         */
        get: operations["sessionListWatches"];
        put?: never;
        /**
         * Watch an identifier, an MCP endpoint or an A2A agent card for a project (owner session)
         * @description Session core (through the cookie gateway). Exactly one of did (did:key, did:jwk, did:web), mcpEndpoint (a Streamable HTTP MCP endpoint: its inventory) or a2aCard (an agent's origin or card URL: its card), the last two through the egress policy and optionally with an approved baseline file (baseline) that the first check compares with. Checked hourly by the automatic worker; each check is one of the project's 18000 attempts per rolling 30 days. A subject the project already watches gives its existing watch (200; a baseline sent with it is not used).
         */
        post: operations["sessionCreateWatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects/{project}/watches/{watch}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Stop watching (owner session)
         * @description Session core (through the cookie gateway). The watch stops; its queued deliveries are cancelled (one in flight finishes). Its events stay readable for their window.
         */
        delete: operations["sessionDeleteWatch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects/{project}/watches/{watch}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A watch's events of the last 30 days (owner session)
         * @description Session core (through the cookie gateway). Every event of the last 30 days, newest first — or, above 200, a refusal (409 MONITOR_REPORT_CAPACITY), never a truncated list: page them with event-page. No query option is taken (cursors are POST bodies).
         */
        get: operations["sessionListEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects/{project}/watches/{watch}/event-page": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A page of a watch's events from a snapshot (owner session)
         * @description Session core (through the cookie gateway). The first page (no snapshotEventId) fixes the snapshot watermark: the newest event of the 30-day window (at or before asOf). Pages go newest first in persistence order; each gives hasMore and the next cursor (snapshotEventId, beforeEventId, asOf) to send back as the body with a limit. Events recorded after the watermark never appear in its pages, and every event up to it appears exactly once. Strict body; cursors in a query string or a GET are refused.
         */
        post: operations["sessionEventPage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects/{project}/watches/{watch}/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A complete 30-day report of one watch (owner session)
         * @description Session core (through the cookie gateway). The watch and every event of the last 30 days, from one snapshot — complete, or refused with 409 MONITOR_REPORT_CAPACITY above 1000 events or 8 MiB; never partial. No baseline document is included.
         */
        post: operations["sessionWatchReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects/{project}/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's webhook (owner session)
         * @description Session core (through the cookie gateway). The active configuration (never its secret), or the last one when a receiver disabled it by answering 410 Gone (active false, with disabledReason: set a webhook again to resume deliveries), or null; and whether this daemon runs the worker that delivers.
         */
        get: operations["sessionGetWebhook"];
        put?: never;
        /**
         * Set the project's webhook (owner session)
         * @description Session core (through the cookie gateway). The URL must pass the egress policy (https, public addresses) now and at every delivery. The service makes the signing secret: it is in this answer only. A webhook already set is replaced: disabled, its queued deliveries cancelled. Events recorded from now on are delivered (none from before).
         */
        post: operations["sessionSetWebhook"];
        /**
         * Disable the project's webhook (owner session)
         * @description Session core (through the cookie gateway). Disables the webhook and cancels its queued deliveries (an attempt in flight finishes; a failed one is not retried). Idempotent: 204 also when none is set.
         */
        delete: operations["sessionDeleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects/{project}/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The project's recent webhook deliveries (owner session)
         * @description Session core (through the cookie gateway). The newest 100 deliveries of the last 30 days: metadata only — never a body, signature, secret or lease — with each delivery's attempt decisions (newest first, at most 10: DELIVERED, RETRY, DEAD_LETTER, WEBHOOK_DISABLED after a 410 Gone, CANCELLED) and their one-line details.
         */
        get: operations["sessionListDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects/{project}/webhook-deliveries/{delivery}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a dead-lettered or cancelled delivery (owner session)
         * @description Session core (through the cookie gateway). A new delivery of the same event (same evt_ id and body bytes) to the project's active webhook, five fresh attempts: the same delivery when it was that webhook's (its stored signature kept), else a new one signed with the active webhook's secret. Only DEAD_LETTER or CANCELLED deliveries of an active watch. The signature's t stays the event's creation time: verify a replay of an old event with a window that covers it. svc never replays by itself.
         */
        post: operations["sessionReplayDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/projects/{project}/watches/{watch}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a watch's dead letters since an instant (owner session)
         * @description Session core (through the cookie gateway). Every event of the watch created at or after `since` with a DEAD_LETTER delivery is queued again to the project's active webhook, as a replay of each delivery, in one transaction. None is an empty list. svc never replays by itself.
         */
        post: operations["sessionReplayWatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session/scheduled-usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The owner's scheduled monitor usage (owner session)
         * @description Session core (through the cookie gateway). Per project of the owner: the allowance (18000 attempts per rolling 30 days, failures counted; it does not consume the API allowance), the attempts used, the due checks skipped because it was used up, and the next due check.
         */
        get: operations["sessionScheduledUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The OpenAPI 3.1 document of this API */
        get: operations["openApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    monitorEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A monitor event, POSTed to the webhook URL of an operator watch
         * @description Delivered at least once: up to 5 attempts (backoff 60, 120, 240, 480 s), each bounded to 45 s; any 2xx ends delivery. The body and createdAt are the same on every attempt; X-Svc-Timestamp and X-Svc-Signature-256 are renewed per attempt. Verify before trusting: recompute HMAC-SHA256 keyed with the watch secret over `<X-Svc-Timestamp>.<raw body>`, compare in constant time, refuse timestamps more than 300 s away from now (the clients: verifyWebhook / verify_webhook). A signature grants no API quota or billing authority.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event type (as `type` in the body). */
                    "X-Svc-Event": components["schemas"]["MonitorEventType"];
                    /** @description The event id (as `id` in the body): deduplicate on it. */
                    "X-Svc-Event-Id": string;
                    /** @description Unix seconds when this attempt was signed. */
                    "X-Svc-Timestamp": string;
                    /** @description `sha256=<hex>`: HMAC-SHA256 keyed with the watch secret over `<timestamp>.<raw body>`. */
                    "X-Svc-Signature-256": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["WebhookEnvelope"];
                };
            };
            responses: {
                /** @description Received: delivery ends. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Not received (any other status, or no answer within 45 s): retried until the fifth attempt, then dead-lettered. */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    customerEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A customer monitor event, POSTed to the project's webhook (owner sessions)
         * @description Delivered at least once: up to 5 attempts (backoff 60, 120, 240, 480 s), each bounded to 45 s; any 2xx ends delivery. Every attempt sends the same bytes, X-SVC-Event-ID and X-SVC-Signature (made when the event was recorded). Verify before trusting: recompute HMAC-SHA256 keyed with the webhook secret over `<t>.<exact body>`, compare in constant time, accept t within 1800 s of now (the retry schedule fits in it), check that projectId is yours, and deduplicate durably on the event id (the clients: verifyCustomerWebhook / verify_customer_webhook).
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /** @description The event id (as `id` in the body): deduplicate on it. */
                    "X-SVC-Event-ID": string;
                    /** @description `t=<creationTime>,v1=<hex>`: t is the event's creation in unix seconds; the hex is HMAC-SHA256 keyed with the webhook secret over `<t>.<exact UTF-8 body>`. */
                    "X-SVC-Signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CustomerEvent"];
                };
            };
            responses: {
                /** @description Received: delivery ends. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Not received: retried until the fifth attempt, then dead-lettered; disabling the webhook cancels what is queued. */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        TraceStage: {
            stage: string;
            label: string;
            status: "PASS" | "WARN" | "FAIL" | "SKIP";
            startedUs: number;
            durationUs: number;
            detail: string;
        };
        Problem: {
            type: string;
            title: string;
            status: number;
            detail: string;
            code: string;
            trace?: components["schemas"]["TraceStage"][];
            retryAfter?: number;
            /** @description The request's id, as in the X-Request-Id response header: quote it when reporting a problem. */
            requestId?: string;
        };
        Health: {
            /** @enum {string} */
            status: "ok";
            name: string;
            version: string;
            time: string;
            supportedMethods: string[];
            standards: {
                didCore: string;
                didResolution: string;
                didKey: string;
                didJwk: string;
                didWeb: string;
                didWebvh: string;
                didConfiguration: string;
                dataIntegrity: string;
                verifiableCredentials: string;
                statusLists: string;
                delegationReceipts: string;
                jcs: string;
                jwkThumbprint: string;
                problemDetails: string;
                fingerprintProfile: string;
                storageSchema: number;
            };
            /** @description Whether operator monitoring runs here (SVC_ADMIN_TOKEN on the direct profile): watches checked, events delivered. */
            monitoring: boolean;
            rateLimited: boolean;
            profile: "direct" | "public";
            relaxations: {
                setting: string;
                value: string | null;
                effect: string;
            }[];
            /** @description Who signs the results asked for with signed=true (docs/daemon.md#signed-results); null when the daemon has no signing key (SVC_SIGNING_KEY). */
            signer: {
                /** @description The DID the daemon signs as: the did:key of its key, or the did:web of SVC_SIGNING_DID. */
                did: string;
                /** @description The verification method of the key, the kid of every svc-signature. */
                kid: string;
                alg: "EdDSA" | "ES256";
            } | null;
        };
        Ready: {
            /** @enum {boolean} */
            ready: true;
            /** @description The engine: an embedded SQLite file, SQLite in memory, or a PostgreSQL database shared by several daemons */
            storage: "file" | "memory" | "postgres";
            /** @enum {string} */
            schema: "current";
        };
        ServiceStatus: {
            status: "ok" | "degraded";
            version: string;
            profile: "direct" | "public";
            startedAt: string;
            uptimeSeconds: number;
            components: {
                resolution: {
                    status: "ok" | "draining";
                    methods: string[];
                    inFlight: number;
                    maxConcurrency: number;
                    maxConcurrencyPerClient: number;
                };
                /** @description The daemon's in-memory resolution cache; bytes and the bounds are absent only when a library caller gave the daemon a cache of its own */
                cache: {
                    /** @enum {string} */
                    status: "ok";
                    entries: number;
                    ttlSeconds: number;
                    /** @description svc's estimate of the memory the cached resolutions hold (their documents, evidence and kept answers), bytes */
                    bytes?: number;
                    /** @description The entry bound (SVC_CACHE_MAX_ENTRIES) */
                    maxEntries?: number;
                    /** @description The byte bound (SVC_CACHE_MAX_BYTES); least recently used entries go first until both bounds hold */
                    maxBytes?: number;
                };
                storage: {
                    /** @enum {string} */
                    status: "ok";
                    /** @description The engine: an embedded SQLite file, SQLite in memory, or a PostgreSQL database shared by several daemons */
                    storage: "file" | "memory" | "postgres";
                    /** @enum {string} */
                    schema: "current";
                    schemaVersion: number;
                    observations?: {
                        stored: number;
                        ceiling: number | null;
                        evicted: number;
                        refused: number;
                    };
                    mcpObservations?: {
                        stored: number;
                        ceiling: number | null;
                        evicted: number;
                        refused: number;
                    };
                } | {
                    /** @enum {string} */
                    status: "unavailable";
                    reason: string;
                };
                rateLimit: {
                    /** @enum {string} */
                    status: "ok";
                    standardPerMinute: number;
                    intensivePerMinute: number;
                } | {
                    /** @enum {string} */
                    status: "ok";
                    perMinute: number;
                };
                monitoring: {
                    status: "ok" | "disabled";
                };
                claims: {
                    /** @description unavailable while the database is. */
                    status: "ok" | "unavailable";
                    /** @description Seconds between re-checks of a well-known or DNS claim. */
                    recheckIntervalSeconds: number;
                    /** @description Seconds between two passes of the re-checker. */
                    periodSeconds: number;
                };
                console: {
                    /** @description enabled while the commercial mode is on (its cookie gateway is the owner console). */
                    status: "enabled" | "disabled";
                };
                billing: {
                    /** @description mock while the commercial mode is on: usage is counted, nothing is charged (no payment provider); disabled otherwise. */
                    status: "mock" | "disabled";
                };
            };
        };
        DimensionId: "integrity" | "keys" | "control" | "origin" | "transport" | "history" | "organization";
        DimensionState: "ESTABLISHED" | "SELF_CERTIFYING" | "NOT_ESTABLISHED" | "FAILED" | "INDETERMINATE" | "NOT_APPLICABLE";
        Outcome: "RESOLVED" | "RESOLVED_WITH_WARNINGS" | "DEACTIVATED";
        Relationship: "authentication" | "assertionMethod" | "keyAgreement" | "capabilityInvocation" | "capabilityDelegation";
        KeyStatus: "VALID_KEY" | "INVALID_KEY" | "UNSUPPORTED_KEY";
        DomainBindingStatus: "VERIFIED" | "NOT_CONFIGURED" | "NOT_LINKED" | "INVALID_PROOF" | "UNSUPPORTED_PROOF" | "UNREACHABLE" | "MALFORMED";
        EdgeState: "VERIFIED" | "OBSERVED" | "DECLARED" | "FAILED";
        WebvhCheck: "method" | "json" | "structure" | "parameters" | "scid" | "versionId" | "entryHash" | "versionTime" | "stateId" | "proof" | "preRotation" | "deactivated" | "witness";
        DidDocument: {
            id: string;
        } & {
            [key: string]: unknown;
        };
        DidDocumentMetadata: {
            versionId?: string;
            versionNumber?: number;
            versionTime?: string;
            created?: string;
            updated?: string;
            nextVersionId?: string;
            scid?: string;
            portable?: boolean;
            deactivated?: boolean;
            ttl?: string;
            witness?: {
                [key: string]: unknown;
            };
            watchers?: string[];
            webvhMethod?: string;
        } & {
            [key: string]: unknown;
        };
        DidResolutionMetadata: {
            contentType: string;
            retrieved: string;
            durationMs: number;
        };
        Verdict: {
            outcome: components["schemas"]["Outcome"];
            headline: string;
            statements: string[];
        };
        Dimension: {
            id: components["schemas"]["DimensionId"];
            label: string;
            state: components["schemas"]["DimensionState"];
            statement: string;
            proves: string;
            doesNotProve: string;
        };
        SourceEvidence: {
            kind: "DERIVED" | "HTTPS";
            url: string | null;
            httpStatus: number | null;
            contentType: string | null;
            bytes: number | null;
            sha256: string | null;
            peerAddress: string | null;
            redirects: {
                from: string;
                to: string;
                status: number;
            }[];
            latencyMs: number | null;
        };
        DocumentEvidence: {
            idMatches: boolean;
            contexts: {
                uri: string;
                known: boolean;
            }[];
            relationships: {
                authentication: string[];
                assertionMethod: string[];
                keyAgreement: string[];
                capabilityInvocation: string[];
                capabilityDelegation: string[];
            };
            jcsSha256: string;
            hashProfile: string;
            warnings: string[];
        };
        Multicodec: {
            name: string | null;
            code: string;
        };
        KeyEvidence: {
            id: string;
            type: string | null;
            relationships: components["schemas"]["Relationship"][];
            status: components["schemas"]["KeyStatus"];
            curve: string | null;
            jwkThumbprint: string | null;
            multicodec: components["schemas"]["Multicodec"] | null;
            detail: string | null;
        };
        ServiceEvidence: {
            id: string;
            type: string | string[] | null;
            serviceEndpoint: unknown;
        };
        LinkageCredentialEvidence: {
            index: number;
            format: "JWT" | "DATA_INTEGRITY" | "UNKNOWN";
            status: "VERIFIED" | "NOT_LINKED" | "INVALID_PROOF" | "UNSUPPORTED_PROOF" | "MALFORMED";
            reason: string;
            issuer: string | null;
            subject: string | null;
            origin: string | null;
            proof: string | null;
            verificationMethod: string | null;
            validFrom: string | null;
            validUntil: string | null;
        };
        DomainBindingEvidence: {
            status: components["schemas"]["DomainBindingStatus"];
            origin: string;
            configurationUrl: string;
            reason: string;
            credentials: components["schemas"]["LinkageCredentialEvidence"][];
        };
        CertificateEvidence: {
            subject: string;
            issuer: string;
            validFrom: string;
            validTo: string;
            serialNumber: string;
            sha256Fingerprint: string;
            subjectAltNames: string[];
        };
        TlsEvidence: {
            host: string;
            validatedBy: string;
            protocol: string;
            cipher: string;
            certificate: components["schemas"]["CertificateEvidence"];
            daysUntilExpiry: number;
            hostnameInSan: boolean;
        };
        WebvhEntryEvidence: {
            versionId: string | null;
            versionNumber: number;
            versionTime: string | null;
            status: "VERIFIED" | "FAILED" | "UNVERIFIED";
            check: components["schemas"]["WebvhCheck"] | null;
            reason: string | null;
            documentId: string | null;
            method: string | null;
            signedBy: string | null;
            changes: string[];
            updateKeys: string[];
            preRotation: boolean;
            witness: {
                threshold: number;
                approvals: number;
            } | null;
            deactivated: boolean;
        };
        WebvhWitnessFileEvidence: {
            status: "NOT_REQUIRED" | "FOUND" | "NOT_PUBLISHED" | "INVALID";
            url: string;
            httpStatus: number | null;
            contentType: string | null;
            bytes: number | null;
            sha256: string | null;
            acceptedProofs: number;
            discarded: {
                versionId: string | null;
                verificationMethod: string | null;
                reason: string;
            }[];
            reason: string | null;
        };
        /** @description The first entry where a served did:webvh log stopped extending the kept one. */
        LogRewrite: {
            versionNumber: number;
            kind: "CHANGED" | "REMOVED";
            kept: {
                versionId: string | null;
                versionTime: string | null;
                entryHash: string;
            };
            served: {
                versionId: string | null;
                versionTime: string | null;
                entryHash: string;
            } | null;
            /** Format: date-time */
            detectedAt: string;
        };
        /** @description The log compared with the one svc kept from earlier verifications (docs/history.md#kept-didwebvh-logs). */
        KeptLogEvidence: {
            status: "FIRST_KEPT" | "UNCHANGED" | "EXTENDED" | "REWRITTEN" | "NOT_COMPARED";
            keptEntries: number;
            appendedEntries: number;
            keptSince: string | null;
            atBound: boolean;
            rewrite: components["schemas"]["LogRewrite"] | null;
            reason: string | null;
        };
        HistoryEvidence: {
            scid: string;
            entries: components["schemas"]["WebvhEntryEvidence"][];
            witness: components["schemas"]["WebvhWitnessFileEvidence"];
            verifiedEntries: number;
            selectedVersion: number;
            failure: {
                versionNumber: number;
                check: components["schemas"]["WebvhCheck"];
                reason: string;
            } | null;
            reusedEntries: number;
            keptLog?: components["schemas"]["KeptLogEvidence"];
        };
        WhoisStatus: "VERIFIED" | "FAILED" | "INDETERMINATE";
        WhoisCredentialEvidence: {
            index: number;
            issuer: string | null;
            types: string[];
            status: string;
            verified: boolean;
            claims: {
                [key: string]: unknown;
            } | {
                [key: string]: unknown;
            }[] | null;
            detail: string;
        };
        WhoisEvidence: {
            url: string;
            service: "IMPLICIT" | "DECLARED";
            status: components["schemas"]["WhoisStatus"];
            reason: string;
            httpStatus: number | null;
            bytes: number | null;
            sha256: string | null;
            presentationStatus: string | null;
            holder: string | null;
            signedBy: string | null;
            credentials: components["schemas"]["WhoisCredentialEvidence"][];
        };
        Evidence: {
            source: components["schemas"]["SourceEvidence"];
            document: components["schemas"]["DocumentEvidence"];
            keys: components["schemas"]["KeyEvidence"][];
            services: components["schemas"]["ServiceEvidence"][];
            domainBinding: components["schemas"]["DomainBindingEvidence"] | null;
            tls: components["schemas"]["TlsEvidence"] | null;
            history: components["schemas"]["HistoryEvidence"] | null;
            whois?: components["schemas"]["WhoisEvidence"];
        };
        GraphNode: {
            id: string;
            kind: "subject" | "document" | "origin" | "tls" | "key" | "service" | "linkage";
            label: string;
        };
        GraphEdge: {
            from: string;
            to: string;
            relation: string;
            state: components["schemas"]["EdgeState"];
        };
        EnrichedResolution: {
            did: string;
            method: string;
            didDocument: components["schemas"]["DidDocument"];
            didResolutionMetadata: components["schemas"]["DidResolutionMetadata"];
            didDocumentMetadata: components["schemas"]["DidDocumentMetadata"];
            verdict: components["schemas"]["Verdict"];
            dimensions: components["schemas"]["Dimension"][];
            evidence: components["schemas"]["Evidence"];
            graph: {
                nodes: components["schemas"]["GraphNode"][];
                edges: components["schemas"]["GraphEdge"][];
            };
            trace: components["schemas"]["TraceStage"][];
            limitations: string[];
            resolver: {
                name: string;
                version: string;
            };
            observedAt: string;
            cached: boolean;
        };
        EvidenceBundle: {
            /** @enum {string} */
            format: "svc-evidence-bundle";
            /** @enum {number} */
            version: 1;
            hashProfile: string;
            svc: {
                version: string;
            };
            /** @description When the work started (RFC 3339). */
            observedAt: string;
            command: {
                /** @enum {unknown} */
                kind: "resolve" | "verify-credential" | "inspect-mcp" | "inspect-a2a";
                subject: string;
                /** @description What the work needs to run again. */
                options: {
                    [key: string]: unknown;
                };
            };
            inputs: {
                name: string;
                mediaType: string | null;
                /** @description Lower-case hex SHA-256. */
                sha256: string;
                /** @description Standard base64 (RFC 4648 §4, padded). */
                body: string;
            }[];
            resources: {
                id: string;
                purpose: string;
                fetchedAt: string;
                request: {
                    /** @enum {unknown} */
                    method: "GET" | "POST" | "DELETE";
                    url: string;
                    /** @description Lower-case hex SHA-256. */
                    sha256?: string;
                    /** @description Standard base64 (RFC 4648 §4, padded). */
                    body?: string;
                };
                response: {
                    url: string;
                    status: number;
                    headers: {
                        [key: string]: string;
                    };
                    bytes: number;
                    /** @description Lower-case hex SHA-256. */
                    sha256: string;
                    /** @description Standard base64 (RFC 4648 §4, padded). */
                    body: string;
                };
                redirects: {
                    from: string;
                    to: string;
                    status: number;
                }[];
                peerAddress: string;
                allowances: string[];
                tls: {
                    host: string;
                    protocol: string;
                    cipher: string;
                    validatedBy: string;
                    /** @description DER certificates as the handshake validated them, leaf first, the anchor last. */
                    chain: string[];
                } | null;
            }[];
            failures?: {
                [key: string]: unknown;
            }[];
            txt: {
                name: string;
                records: string[];
            }[];
            /** @description The result svc computed, as it reported it. */
            result: {
                [key: string]: unknown;
            };
            /** @description From a daemon with a signing key: a detached JWS over the canonical form of the bundle without signature. */
            signature?: {
                protected: string;
                signature: string;
            };
        };
        FastDidVerdict: {
            did: string;
            /** @enum {boolean} */
            resolved: true;
            outcome: components["schemas"]["Outcome"];
            headline: string;
            statements: string[];
            dimensions: {
                id: components["schemas"]["DimensionId"];
                state: components["schemas"]["DimensionState"];
            }[];
            keys: {
                id: string;
                curve: string | null;
                status: components["schemas"]["KeyStatus"];
                relationships: components["schemas"]["Relationship"][];
                jwkThumbprint: string | null;
            }[];
            domainBinding: components["schemas"]["DomainBindingStatus"] | null;
            documentSha256: string;
            observedAt: string;
            cached: boolean;
        };
        GraphResponse: {
            did: string;
            observedAt: string;
            verdict: components["schemas"]["Verdict"];
            nodes: components["schemas"]["GraphNode"][];
            edges: components["schemas"]["GraphEdge"][];
        };
        Observation: {
            id: number;
            did: string;
            documentHash: string;
            observedAt: string;
            lastSeenAt: string;
            seenCount: number;
            latencyMs: number | null;
            resolverVersion: string;
            domainBindingStatus: components["schemas"]["DomainBindingStatus"] | null;
            summary: string;
        };
        ObservationHistory: {
            did: string;
            count: number;
            history: components["schemas"]["Observation"][];
            note: string;
        };
        SemanticDiff: {
            did: string;
            fromHash: string;
            toHash: string;
            fromObservedAt: string;
            toObservedAt: string;
            identical: boolean;
            keysAdded: string[];
            keysRemoved: string[];
            keysRotated: string[];
            relationshipsChanged: {
                relationship: components["schemas"]["Relationship"];
                added: string[];
                removed: string[];
            }[];
            servicesAdded: string[];
            servicesRemoved: string[];
            servicesChanged: string[];
            controllerChanged: boolean;
            alsoKnownAsChanged: boolean;
            contextsChanged: boolean;
            domainBindingFrom: components["schemas"]["DomainBindingStatus"] | null;
            domainBindingTo: components["schemas"]["DomainBindingStatus"] | null;
            domainBindingChanged: boolean;
            changedMembers: string[];
            summary: string;
            fromDocument: components["schemas"]["DidDocument"];
            toDocument: components["schemas"]["DidDocument"];
        };
        DereferencingResult: {
            /** @enum {string} */
            "@context": "https://w3id.org/did-resolution/v1";
            dereferencingMetadata: {
                contentType: "application/did" | "application/json" | "text/uri-list";
                retrieved: string;
            };
            contentStream: unknown;
            contentMetadata: components["schemas"]["DidDocumentMetadata"];
        };
        W3cResolutionResult: {
            /** @enum {string} */
            "@context": "https://w3id.org/did-resolution/v1";
            didDocument: components["schemas"]["DidDocument"];
            didResolutionMetadata: {
                /** @enum {string} */
                contentType: "application/did";
                retrieved: string;
                durationMs: number;
            };
            didDocumentMetadata: components["schemas"]["DidDocumentMetadata"];
        };
        W3cErrorResolutionResult: {
            /** @enum {string} */
            "@context": "https://w3id.org/did-resolution/v1";
            didDocument: null;
            didResolutionMetadata: {
                error: components["schemas"]["Problem"];
            };
            didDocumentMetadata: Record<string, never>;
        };
        CheckStatus: "PASS" | "FAIL" | "WARN" | "SKIP" | "UNSUPPORTED" | "INDETERMINATE";
        CredentialCheck: {
            id: "structure" | "issuer" | "proof" | "validity" | "status" | "jwt.aud" | "kb.nonce";
            label: string;
            status: components["schemas"]["CheckStatus"];
            detail: string;
        };
        ProofSummary: {
            format: "DATA_INTEGRITY" | "VC_JOSE_COSE" | "VC_JWT_1_1" | "SD_JWT_VC" | "UNKNOWN";
            suite: string | null;
            verificationMethod: string | null;
            proofPurpose: string | null;
            created: string | null;
            keyCurve: string | null;
            signedDigest: string | null;
            detail: string;
        };
        StatusListEntry: {
            statusType: string | null;
            purpose: string | null;
            index: number | null;
            listUrl: string | null;
            statusSize: number | null;
            listCredentialVerified: boolean;
            listLengthBits: number | null;
            value: number | null;
            result: "ACTIVE" | "REVOKED" | "SUSPENDED" | "UNSUPPORTED" | "INDETERMINATE";
            window: string | null;
            windowOffset: number | null;
            detail: string;
        };
        IssuerResolutionSummary: {
            did: string;
            outcome: components["schemas"]["Outcome"] | null;
            headline: string | null;
            problem: string | null;
            detail: string;
        };
        KeyBindingSummary: {
            status: "PASS" | "FAIL";
            audience: string | null;
            nonce: string | null;
            issuedAt: string | null;
            detail: string;
        };
        DisclosureSummary: {
            disclosed: string[];
            undisclosed: number;
            keyBinding: components["schemas"]["KeyBindingSummary"] | null;
        };
        IssuerTrust: {
            status: "PASS" | "FAIL" | "INDETERMINATE";
            issuer: string | null;
            matched: string | null;
            trustedIssuers: string[];
            detail: string;
        };
        CredentialVerification: {
            status: "VALID" | "INVALID" | "EXPIRED" | "NOT_YET_VALID" | "REVOKED" | "SUSPENDED" | "UNSUPPORTED" | "INDETERMINATE" | "MALFORMED";
            headline: string;
            format: "DATA_INTEGRITY" | "VC_JOSE_COSE" | "VC_JWT_1_1" | "SD_JWT_VC" | "UNKNOWN";
            dataModel: "2.0" | "1.1" | "unknown";
            issuer: string | null;
            subject: string | null;
            types: string[];
            validFrom: string | null;
            validUntil: string | null;
            claims: {
                [key: string]: unknown;
            } | {
                [key: string]: unknown;
            }[] | null;
            checks: components["schemas"]["CredentialCheck"][];
            proof: components["schemas"]["ProofSummary"] | null;
            statusList: components["schemas"]["StatusListEntry"][];
            issuerResolution: components["schemas"]["IssuerResolutionSummary"] | null;
            limitations: string[];
            valid: boolean;
            errors: string[];
            disclosures?: components["schemas"]["DisclosureSummary"] | null;
            issuerTrust?: components["schemas"]["IssuerTrust"];
        };
        JwsVerification: {
            status: "VALID" | "INVALID" | "UNSUPPORTED" | "INDETERMINATE" | "MALFORMED";
            valid: boolean;
            headline: string;
            alg: string | null;
            kid: string | null;
            typ: string | null;
            payload: unknown;
            signingInputSha256: string | null;
            signer?: string;
            relationship?: components["schemas"]["Relationship"];
        };
        RuleEvaluation: {
            rule: "didResolution" | "allowedMethods" | "allowedCurves" | "allowedKeySuites" | "minKeyBits" | "requireKeyRelationship" | "domainBinding" | "tlsMinDaysRemaining" | "verifiableHistory" | "maxCacheAgeSeconds" | "credentialStatus" | "credentialIssuerMustBeSubject" | "trustedIssuers";
            status: "PASS" | "FAIL" | "INDETERMINATE";
            message: string;
            expected: unknown;
            observedValue: unknown;
        };
        PolicyEvaluation: {
            did: string;
            policyName: string | null;
            status: "PASS" | "FAIL" | "INDETERMINATE" | "NOT_APPLICABLE";
            headline: string;
            rulesEvaluated: number;
            rulesPassed: number;
            evaluations: components["schemas"]["RuleEvaluation"][];
            evaluatedAt: string;
        };
        PolicyDecision: {
            evaluation: components["schemas"]["PolicyEvaluation"];
            credential: components["schemas"]["CredentialVerification"] | null;
            resolution: {
                verdict: components["schemas"]["Verdict"];
                dimensions: components["schemas"]["Dimension"][];
            } | null;
        };
        CredentialVerifyRequest: {
            /** @description A credential object, the JSON text of one (raw JSON keeps duplicate members detectable), a compact JWT string, or an SD-JWT VC presentation (`<JWT>~<disclosure>~…~[<KB-JWT>]`). */
            credential: {
                [key: string]: unknown;
            } | string;
            expectedAudience?: string;
            expectedNonce?: string;
            /** @description Whose credentials the caller accepts: the answer then carries issuerTrust (status and valid unchanged). Entries: DIDs, matched exactly, and did:web or did:webvh domain forms: "did:web:*.example.com" (every subdomain of example.com, not example.com itself) and "did:web:example.com:*" (example.com and every path below it); a bad entry is refused (400). */
            trustedIssuers?: string[];
            /** @description JSON-LD processing for this request: true requires it (400 INVALID_OPTIONS on a daemon without SVC_JSONLD=on), false turns it off; absent, the daemon's setting. With it, eddsa-rdfc-2022, ecdsa-rdfc-2019 and Ed25519Signature2020 proofs are verified over RDFC-1.0 with svc's pinned contexts, and VC-JWT credentials signed with RS256 or PS256 (RSA keys of 2048 bits or more); without it they are UNSUPPORTED. */
            jsonld?: boolean;
        } | {
            [key: string]: unknown;
        };
        JwsVerifyRequest: {
            /** @description A compact JWS whose kid is a DID URL. */
            jws: string;
            relationship?: components["schemas"]["Relationship"];
        };
        PolicyRules: {
            /** @enum {string} */
            didResolution?: "required";
            allowedMethods?: string[];
            allowedCurves?: string[];
            allowedKeySuites?: string[];
            minKeyBits?: number;
            requireKeyRelationship?: components["schemas"]["Relationship"];
            domainBinding?: "required" | "optional";
            tlsMinDaysRemaining?: number;
            /** @enum {string} */
            verifiableHistory?: "required";
            maxCacheAgeSeconds?: number;
            /** @enum {string} */
            credentialStatus?: "active";
            credentialIssuerMustBeSubject?: boolean;
            /** @description The credential's issuer must be among these; an empty list is INDETERMINATE. Entries: DIDs, matched exactly, and did:web or did:webvh domain forms: "did:web:*.example.com" (every subdomain of example.com, not example.com itself) and "did:web:example.com:*" (example.com and every path below it); a bad entry is refused (400). */
            trustedIssuers?: string[];
        };
        Policy: {
            name?: string;
            rules: components["schemas"]["PolicyRules"];
        };
        PolicyEvaluateRequest: {
            /** @description The DID whose evidence the policy is evaluated against. */
            did: string;
            policy: components["schemas"]["Policy"];
            /** @description A credential object, the JSON text of one (raw JSON keeps duplicate members detectable), a compact JWT string, or an SD-JWT VC presentation (`<JWT>~<disclosure>~…~[<KB-JWT>]`). */
            credential?: {
                [key: string]: unknown;
            } | string;
        };
        PresentationCheck: {
            id: "structure" | "holder" | "proof" | "validity" | "challenge" | "domain" | "credentials" | "holderBinding";
            label: string;
            status: components["schemas"]["CheckStatus"];
            detail: string;
        };
        EmbeddedCredential: {
            index: number;
            form: "OBJECT" | "ENVELOPED" | "JWT" | "SD_JWT";
            holderBinding: "BOUND" | "NOT_BOUND" | "NO_SUBJECT_ID" | "UNKNOWN";
            holderBindingDetail: string;
            verification: components["schemas"]["CredentialVerification"];
        };
        PresentationVerification: {
            status: "VALID" | "INVALID" | "EXPIRED" | "NOT_YET_VALID" | "REVOKED" | "SUSPENDED" | "UNSUPPORTED" | "INDETERMINATE" | "MALFORMED";
            headline: string;
            format: "DATA_INTEGRITY" | "VC_JOSE_COSE" | "VC_JWT_1_1" | "SD_JWT_VC" | "UNKNOWN";
            dataModel: "2.0" | "1.1" | "unknown";
            id: string | null;
            holder: string | null;
            types: string[];
            challenge: string | null;
            domain: string[] | null;
            checks: components["schemas"]["PresentationCheck"][];
            proof: components["schemas"]["ProofSummary"] | null;
            holderResolution: components["schemas"]["IssuerResolutionSummary"] | null;
            credentials: components["schemas"]["EmbeddedCredential"][];
            limitations: string[];
            valid: boolean;
            errors: string[];
        };
        PresentationVerifyRequest: {
            /** @description A presentation object (Data Integrity), the JSON text of one (raw JSON keeps duplicate members detectable), or a compact JWT (vp+jwt, or a VC-JWT 1.1 token with a vp claim). */
            presentation: {
                [key: string]: unknown;
            } | string;
            challenge?: string;
            domain?: string;
            expectedAudience?: string;
            expectedNonce?: string;
            /** @description The issuers the verifier trusts: each embedded credential then carries issuerTrust (its status and the presentation's are unchanged by it). Entries as POST /v1/credentials/verify takes them: DIDs, matched exactly, and did:web or did:webvh domain forms ("did:web:*.example.com", "did:web:example.com:*"); a bad entry is refused (400, naming it); an empty list decides nothing (INDETERMINATE). */
            trustedIssuers?: string[];
            requireHolderBinding?: boolean;
        };
        VcApiProblemDetails: {
            type: string;
            title: string;
            detail: string;
        };
        VcApiVerificationResult: {
            verified: boolean;
            checks: string[];
            warnings: components["schemas"]["VcApiProblemDetails"][];
            errors: components["schemas"]["VcApiProblemDetails"][];
        };
        VcApiVerifyOptions: {
            checks?: string[];
        } & {
            [key: string]: unknown;
        };
        VcApiVerifyCredentialRequest: {
            /** @description A credential object (a Data Integrity credential), or an EnvelopedVerifiableCredential whose id is data:application/vc+jwt,<JWT> (or vc+sd-jwt, dc+sd-jwt); never a string */
            verifiableCredential: {
                [key: string]: unknown;
            };
            options?: components["schemas"]["VcApiVerifyOptions"];
        };
        VcApiVerifyPresentationOptions: {
            checks?: string[];
            challenge?: string;
            domain?: string;
        } & {
            [key: string]: unknown;
        };
        VcApiVerifyPresentationRequest: {
            /** @description A presentation object (a Data Integrity presentation), or an EnvelopedVerifiablePresentation whose id is data:application/vp+jwt,<JWT>; never a string */
            verifiablePresentation: {
                [key: string]: unknown;
            };
            options?: components["schemas"]["VcApiVerifyPresentationOptions"];
        };
        ChainStatus: "VALID" | "INVALID" | "INDETERMINATE" | "MALFORMED";
        DelegationLinkCheck: {
            id: "receipt" | "signature" | "chaining" | "prf" | "window" | "capabilities" | "validity" | "cycle";
            label: string;
            status: components["schemas"]["CheckStatus"];
            detail: string;
        };
        DelegationChainCheck: {
            id: "depth" | "trustedRoot";
            label: string;
            status: components["schemas"]["CheckStatus"];
            detail: string;
        };
        DelegationLink: {
            index: number;
            issuer: string | null;
            audience: string | null;
            capabilities: string[];
            notBefore: string | null;
            expires: string | null;
            jti: string | null;
            kid: string | null;
            alg: string | null;
            digest: string;
            signatureValid: boolean;
            status: components["schemas"]["ChainStatus"];
            issuerHeadline: string | null;
            checks: components["schemas"]["DelegationLinkCheck"][];
        };
        DelegationChainResult: {
            status: components["schemas"]["ChainStatus"];
            headline: string;
            format: string;
            root: string | null;
            leaf: string | null;
            effectiveCapabilities: string[];
            notAfter: string | null;
            trustedRoot: string | null;
            links: components["schemas"]["DelegationLink"][];
            checks: components["schemas"]["DelegationChainCheck"][];
            limitations: string[];
        };
        Authorization: {
            agent: string | null;
            tool: string;
            decision: "ALLOW" | "DENY";
            authorized: boolean;
            reason: string;
            matchedCapability?: string;
            root?: string;
            expires?: string;
        };
        DelegationVerification: {
            result: components["schemas"]["DelegationChainResult"];
            registered: boolean;
            registrationReason?: string;
        };
        AuthorizeResponse: {
            authorization: components["schemas"]["Authorization"];
            chain: components["schemas"]["DelegationChainResult"];
        };
        VerifyDelegationRequest: {
            /** @description Compact receipts (JWS), root first. 1 to 8 make a chain; an empty or longer chain is a MALFORMED result; more than 64 entries are refused (400). */
            chain: string[];
            /** @description Bare DIDs; the root issuer must be one of them. */
            trustedRoots?: string[];
            register?: boolean;
        };
        AuthorizeRequest: {
            /** @description Compact receipts (JWS), root first. 1 to 8 make a chain; an empty or longer chain is a MALFORMED result; more than 64 entries are refused (400). */
            chain: string[];
            /** @description The name of the tool to authorise. */
            tool: string;
            /** @description Bare DIDs; the root issuer must be one of them. */
            trustedRoots?: string[];
        };
        McpCheck: {
            id: "historyPersistence" | "transport" | "protocol" | "identity" | "inventory" | "drift";
            label: string;
            status: "PASS" | "WARN" | "FAIL" | "SKIP";
            detail: string;
        };
        RiskSignal: {
            id: "hidden_instruction_tag" | "model_directive" | "cross_tool_shadowing" | "sensitive_path" | "exfiltration_parameter" | "shell_exec_name" | "executes_code" | "destructive_verb" | "writes_files" | "reads_environment" | "fetches_urls" | "invisible_unicode" | "encoded_payload" | "overlong_description" | "url_in_description" | "nonstandard_name";
            location: "name" | "uri" | "title" | "description" | "parameter" | "instructions";
            parameter?: string;
            detail: string;
            excerpt: string;
        };
        ToolParameter: {
            name: string;
            type: string | null;
            required: boolean;
            description: string | null;
        };
        McpTool: {
            name: string;
            title: string | null;
            description: string | null;
            definitionSha256: string;
            schemaSha256: string;
            parameters: components["schemas"]["ToolParameter"][];
            annotations: {
                [key: string]: unknown;
            } | null;
            declaredClass: "read_only" | "additive" | "destructive";
            declaredHints: {
                readOnlyHint: {
                    value: boolean;
                    source: "explicit" | "default";
                };
                destructiveHint: {
                    value: boolean;
                    source: "explicit" | "default";
                };
                idempotentHint: {
                    value: boolean;
                    source: "explicit" | "default";
                };
                openWorldHint: {
                    value: boolean;
                    source: "explicit" | "default";
                };
            };
            heuristicClass: "read_only" | "sensitive_read" | "additive" | "destructive" | "execute" | "unknown";
            riskSignals: components["schemas"]["RiskSignal"][];
            drift: "FIRST_OBSERVATION" | "UNCHANGED" | "CHANGED" | "ADDED" | "PROFILE_CHANGED";
            changedFields?: string[];
            inputSchema: unknown;
        };
        McpPrompt: {
            name: string;
            title: string | null;
            description: string | null;
            definitionSha256: string;
            riskSignals: components["schemas"]["RiskSignal"][];
            drift: "FIRST_OBSERVATION" | "UNCHANGED" | "CHANGED" | "ADDED" | "PROFILE_CHANGED";
            changedFields?: string[];
            arguments: {
                name: string;
                description: string | null;
                required: boolean;
            }[];
        };
        McpResource: {
            uri: string;
            name: string | null;
            title: string | null;
            description: string | null;
            definitionSha256: string;
            riskSignals: components["schemas"]["RiskSignal"][];
            drift: "FIRST_OBSERVATION" | "UNCHANGED" | "CHANGED" | "ADDED" | "PROFILE_CHANGED";
            changedFields?: string[];
            mimeType: string | null;
        };
        McpResourceTemplate: {
            uriTemplate: string;
            name: string | null;
            title: string | null;
            description: string | null;
            definitionSha256: string;
            riskSignals: components["schemas"]["RiskSignal"][];
            drift: "FIRST_OBSERVATION" | "UNCHANGED" | "CHANGED" | "ADDED" | "PROFILE_CHANGED";
            changedFields?: string[];
            mimeType: string | null;
        };
        InventoryDrift: {
            status: "FIRST_OBSERVATION" | "UNCHANGED" | "CHANGED" | "PROFILE_CHANGED";
            previousObservedAt: string | null;
            previousInventoryHash: string | null;
            added: string[];
            removed: string[];
            changed: string[];
            prompts: {
                added: string[];
                removed: string[];
                changed: string[];
            };
            resources: {
                added: string[];
                removed: string[];
                changed: string[];
            };
            resourceTemplates: {
                added: string[];
                removed: string[];
                changed: string[];
            };
            reason: string | null;
            baseline?: components["schemas"]["BaselineDrift"];
        };
        BaselineDrift: {
            file: string;
            name: string;
            entrySha256: string | null;
            server: string[];
        };
        McpAuth: {
            status: number;
            wwwAuthenticate: string | null;
            resourceMetadataUrl: string | null;
            resourceMetadata: {
                [key: string]: unknown;
            } | null;
            resourceMetadataError: string | null;
            scope: string | null;
        };
        McpTranscriptEntry: {
            method: string;
            httpMethod: "GET" | "POST" | "DELETE" | "STDIO";
            protocolVersion: string | null;
            status: number | null;
            contentType: string | null;
            bytes: number;
            durationMs: number;
            outcome: string;
        };
        McpInspection: {
            endpoint: string;
            status: "INSPECTED" | "AUTH_REQUIRED";
            mode: "STATELESS" | "SESSION" | "UNKNOWN";
            negotiatedVersion: string | null;
            supportedVersions: string[];
            serverInfo: {
                [key: string]: unknown;
            } | null;
            capabilities: {
                [key: string]: unknown;
            } | null;
            instructions: string | null;
            instructionSignals: components["schemas"]["RiskSignal"][];
            tools: components["schemas"]["McpTool"][];
            prompts: components["schemas"]["McpPrompt"][];
            resources: components["schemas"]["McpResource"][];
            resourceTemplates: components["schemas"]["McpResourceTemplate"][];
            complete: boolean;
            inventoryLimit: string | null;
            inventoryHash: string | null;
            hashProfile: string;
            classCounts: {
                declared: {
                    read_only: number;
                    additive: number;
                    destructive: number;
                };
                heuristic: {
                    read_only: number;
                    sensitive_read: number;
                    additive: number;
                    destructive: number;
                    execute: number;
                    unknown: number;
                };
            };
            drift: components["schemas"]["InventoryDrift"];
            auth: components["schemas"]["McpAuth"] | null;
            transcript: components["schemas"]["McpTranscriptEntry"][];
            checks: components["schemas"]["McpCheck"][];
            headline: string;
            tls: components["schemas"]["TlsEvidence"] | null;
            observedAt: string;
            limitations: string[];
        };
        A2aCheck: {
            id: "fetch" | "schema" | "version" | "interfaces" | "origin" | "provider" | "security" | "signature" | "drift";
            label: string;
            status: "PASS" | "WARN" | "FAIL" | "SKIP";
            detail: string;
        };
        A2aInterface: {
            url: string | null;
            protocolBinding: string | null;
            protocolVersion: string | null;
            https: boolean;
            sameOrigin: boolean;
        };
        A2aSkill: {
            id: string | null;
            name: string | null;
            description: string | null;
            tags: string[];
        };
        A2aSignature: {
            alg: string | null;
            kid: string | null;
            jku: string | null;
            status: "VALID" | "INVALID" | "UNSUPPORTED" | "INDETERMINATE";
            detail: string;
            canonicalization: "a2a-1.0" | "rfc8785" | null;
            keyThumbprint: string | null;
        };
        A2aInspection: {
            cardUrl: string;
            httpStatus: number;
            cardSha256: string;
            canonicalSha256: string;
            hashProfile: string;
            specVersion: "1.0" | "0.3" | "unknown";
            name: string | null;
            description: string | null;
            version: string | null;
            provider: {
                organization: string | null;
                url: string | null;
            } | null;
            documentationUrl: string | null;
            interfaces: components["schemas"]["A2aInterface"][];
            capabilities: {
                [key: string]: unknown;
            } | null;
            securitySchemes: {
                [key: string]: unknown;
            } | null;
            skills: components["schemas"]["A2aSkill"][];
            signatures: components["schemas"]["A2aSignature"][];
            checks: components["schemas"]["A2aCheck"][];
            headline: string;
            card: {
                [key: string]: unknown;
            };
            tls: components["schemas"]["TlsEvidence"] | null;
            observedAt: string;
            limitations: string[];
            baseline?: components["schemas"]["A2aBaselineComparison"];
        };
        A2aBaselineComparison: {
            file: string;
            name: string;
            entrySha256: string;
            status: "UNCHANGED" | "CHANGED";
            card: string[];
            skills: {
                added: string[];
                removed: string[];
                changed: {
                    key: string;
                    changedFields: string[];
                }[];
            };
            interfaces: {
                added: string[];
                removed: string[];
                changed: {
                    key: string;
                    changedFields: string[];
                }[];
            };
            signingKeys: {
                added: string[];
                removed: string[];
                changed: {
                    key: string;
                    changedFields: string[];
                }[];
            };
        };
        McpInspectBaselineRequest: {
            /** @description The URL of the MCP endpoint, e.g. https://tools.example/mcp. */
            endpoint: string;
            /** @description An svc-mcp-baseline document (svc mcp approve writes it; docs/agents.md#approved-baselines), as JSON: compared with its entry approved from this endpoint instead of the last stored inventory. */
            baseline: {
                [key: string]: unknown;
            };
        };
        A2aInspectBaselineRequest: {
            /** @description The agent origin or the URL of its agent card, e.g. https://agent.example. */
            url: string;
            /** @description An svc-a2a-baseline document (svc a2a approve writes it), as JSON: the card is compared with its entry approved from the card URL. */
            baseline: {
                [key: string]: unknown;
            };
        };
        /** @description What changed. identity.*: DID watches (identity.history.rewritten is svc's addition: the watched did:webvh's log no longer extends the log svc kept of it); mcp.*: MCP endpoint watches; a2a.*: A2A card watches; tls.*: any watch whose evidence holds a certificate (tls.certificate.expiring once per threshold of SVC_TLS_EXPIRY_DAYS per certificate; tls.certificate.changed when the leaf changes). */
        MonitorEventType: "identity.document.changed" | "identity.domain_binding.changed" | "identity.deactivated" | "identity.resolution.failed" | "identity.resolution.recovered" | "identity.history.rewritten" | "mcp.inventory.changed" | "mcp.inspection.failed" | "mcp.inspection.recovered" | "a2a.card.changed" | "a2a.inspection.failed" | "a2a.inspection.recovered" | "tls.certificate.expiring" | "tls.certificate.changed";
        /** @description One side of a did:webvh log rewrite. */
        MonitorRewriteSide: {
            versionId: string | null;
            versionTime: string | null;
            /** @description SHA-256 (hex) of the entry's RFC 8785 form, proof included. */
            entryHash: string;
        };
        /** @description identity.* events (DID watches). */
        IdentityEventData: {
            fromHash: string | null;
            toHash: string | null;
            domainBinding: {
                from: components["schemas"]["DomainBindingStatus"] | null;
                to: components["schemas"]["DomainBindingStatus"] | null;
            } | null;
            diff: {
                /** @description One sentence, as the semantic diff (GET /v1/diff) writes it. */
                summary: string;
                changedMembers: string[];
            } | null;
            headline: string | null;
            problem: components["schemas"]["Problem"] | null;
            /** @description identity.history.rewritten only (absent from the other types): the first diverging entry of the did:webvh log. */
            rewrite?: {
                /** @description The position of the first entry where the served log stops extending the kept one. */
                versionNumber: number;
                /** @description CHANGED: another entry at that position; REMOVED: the served log ends before it. */
                kind: "CHANGED" | "REMOVED";
                kept: components["schemas"]["MonitorRewriteSide"];
                served: components["schemas"]["MonitorRewriteSide"] | null;
                /** @description When svc first saw this rewrite (RFC 3339). */
                detectedAt: string;
            };
        };
        /** @description mcp.inventory.changed: against the last good inventory (or the uploaded baseline). */
        McpInventoryChangedData: {
            /** @description The watched MCP endpoint. */
            endpoint: string;
            fromHash: string | null;
            toHash: string | null;
            /** @description Items the server lists now and did not before. */
            added: {
                kind: "tool" | "prompt" | "resource" | "resourceTemplate";
                /** @description The item's key: a tool's or prompt's name, a resource's URI, a template's URI template. */
                name: string;
            }[];
            /** @description Items it no longer lists. */
            removed: {
                kind: "tool" | "prompt" | "resource" | "resourceTemplate";
                /** @description The item's key: a tool's or prompt's name, a resource's URI, a template's URI template. */
                name: string;
            }[];
            /** @description Items whose definition differs, with the members that differ. */
            changed: {
                kind: "tool" | "prompt" | "resource" | "resourceTemplate";
                /** @description The item's key: a tool's or prompt's name, a resource's URI, a template's URI template. */
                name: string;
                /** @description The definition's members that differ (e.g. description, inputSchema). */
                fields: string[];
            }[];
            /** @description The server's own words that differ: serverInfo.<member>, instructions. */
            server: string[];
            /** @description One sentence naming the changes. */
            headline: string;
        };
        /** @description a2a.card.changed: against the last good card (or the uploaded baseline). */
        A2aCardChangedData: {
            /** @description The watched card URL (or origin), as registered. */
            card: string;
            fromHash: string | null;
            toHash: string | null;
            /** @description The skills, by id added, removed and changed (with the members that differ). */
            skills: {
                added: string[];
                removed: string[];
                changed: {
                    key: string;
                    changedFields: string[];
                }[];
            };
            /** @description The interfaces, by URL added, removed and changed (with the members that differ). */
            interfaces: {
                added: string[];
                removed: string[];
                changed: {
                    key: string;
                    changedFields: string[];
                }[];
            };
            /** @description The signing keys, by kid (changed: its alg, jku or the key's RFC 7638 thumbprint) added, removed and changed (with the members that differ). */
            signingKeys: {
                added: string[];
                removed: string[];
                changed: {
                    key: string;
                    changedFields: string[];
                }[];
            };
            /** @description The card's other top-level members that differ (signatures never count). */
            members: string[];
            /** @description The signature check (PASS, WARN, FAIL, SKIP) before and after; from is null when the baseline did not say (an uploaded one). */
            signatureStatus: {
                from: string | null;
                to: string | null;
            };
            /** @description One sentence naming the changes. */
            headline: string;
        };
        /** @description mcp.inspection.failed / recovered, a2a.inspection.failed / recovered: failed once (not again while failing), recovered on the first success after. */
        TargetInspectionData: {
            /** @description mcp.*: the watched MCP endpoint. */
            endpoint?: string;
            /** @description a2a.*: the watched card URL. */
            card?: string;
            fromHash: string | null;
            toHash: string | null;
            problem: components["schemas"]["Problem"] | null;
            headline: string | null;
        };
        /** @description The leaf certificate of the connection that served the watch's check. */
        TlsCertificate: {
            /** @description SHA-256 of the leaf's DER, colon-separated upper-case hex as OpenSSL prints it. */
            sha256Fingerprint: string;
            /** @description The subject distinguished name, e.g. `CN=example.com, O=Example`. */
            subject: string;
            /** @description The issuer distinguished name. */
            issuer: string;
            /** @description When the certificate expires (RFC 3339 UTC). */
            notAfter: string;
        };
        /** @description The data of tls.certificate.expiring. */
        TlsCertificateExpiringData: {
            /** @description The host name the certificate was presented for. */
            host: string;
            certificate: components["schemas"]["TlsCertificate"];
            /** @description Whole days from the check to notAfter, rounded down; negative once expired. */
            daysLeft: number;
            /** @description The threshold reached: the smallest of SVC_TLS_EXPIRY_DAYS at or above daysLeft. */
            thresholdDays: number;
            /** @description The certificate had already expired at the check (daysLeft negative). */
            expired: boolean;
        };
        /** @description The data of tls.certificate.changed. */
        TlsCertificateChangedData: {
            /** @description The host name the certificate was presented for. */
            host: string;
            /** @description The leaf seen before, as svc kept it (its fingerprint and expiry, not its names). */
            from: {
                /** @description The fingerprint of the leaf seen before. */
                sha256Fingerprint: string;
                /** @description Its notAfter (RFC 3339 UTC). */
                notAfter: string;
            };
            to: components["schemas"]["TlsCertificate"];
        };
        /** @description The event's data: its shape follows the event type. */
        MonitorEventData: components["schemas"]["IdentityEventData"] | components["schemas"]["McpInventoryChangedData"] | components["schemas"]["A2aCardChangedData"] | components["schemas"]["TargetInspectionData"] | components["schemas"]["TlsCertificateExpiringData"] | components["schemas"]["TlsCertificateChangedData"];
        WebhookEnvelope: {
            /** @description The stable event id (evt_<n>): receivers deduplicate on it (delivery is at least once). */
            id: string;
            type: components["schemas"]["MonitorEventType"];
            /** @description DID watches: the watched identifier. */
            did?: string;
            /** @description MCP watches: the watched endpoint. */
            mcpEndpoint?: string;
            /** @description A2A watches: the watched card URL. */
            a2aCard?: string;
            watchId: string;
            /** @description When the event was recorded (RFC 3339); stable across attempts. */
            createdAt: string;
            data: components["schemas"]["MonitorEventData"];
        };
        /** @description What the watch watches: a DID (member did), an MCP endpoint (mcpEndpoint) or an A2A agent card (a2aCard). */
        WatchKind: "did" | "mcp" | "a2a";
        Watch: {
            /** @description The watch id; webhook envelopes carry it as watchId. */
            id: string;
            kind: components["schemas"]["WatchKind"];
            /** @description kind did: the watched identifier. */
            did?: string;
            /** @description kind mcp: the watched MCP endpoint URL. */
            mcpEndpoint?: string;
            /** @description kind a2a: the watched agent card URL (or origin), as registered. */
            a2aCard?: string;
            /** @description The webhook URL redacted to its origin and path (no query, no fragment). */
            webhook: string;
            intervalSeconds: number;
            /** @description RFC 3339 UTC. */
            createdAt: string;
            lastHash: string | null;
            lastStatus: string | null;
            lastCheckedAt: string | null;
            active: boolean;
            /** @description Set when a receiver answered 410 Gone: no event is sent (the watch is still checked, its events are kept CANCELLED) until POST /v1/monitoring/watches/{id}/webhook enables it again; null while enabled. */
            webhookDisabled: {
                /** @description RFC 3339 UTC (database clock): when the receiver answered 410 Gone. */
                at: string;
                /** @description The answer, when, and to which event. */
                reason: string;
            } | null;
        };
        WatchRequest: {
            /** @description The identifier to watch (or mcpEndpoint, or a2aCard: exactly one). */
            did?: string;
            /** @description The https URL of a Streamable HTTP MCP endpoint to watch: its tools, prompts and resources. */
            mcpEndpoint?: string;
            /** @description An A2A agent's origin or the URL of its agent card, to watch its card. */
            a2aCard?: string;
            /** @description mcpEndpoint and a2aCard only: an approved baseline file as JSON (svc-mcp-baseline from svc mcp approve, svc-a2a-baseline from svc a2a approve) holding the entry approved from this subject. The first check compares with it; without it the first check is the baseline. */
            baseline?: {
                [key: string]: unknown;
            };
            /** @description An https URL whose host resolves to a public address (the egress policy); checked again at every delivery. */
            webhookUrl: string;
            /** @description Seconds between checks (default 3600). */
            intervalSeconds?: number;
        };
        WatchCreated: {
            watch: components["schemas"]["Watch"];
            /** @description The signing secret of this watch's deliveries (HMAC-SHA256). Shown once: it is never listed again. */
            secret: string;
            note: string;
        };
        WatchList: {
            watches: components["schemas"]["Watch"][];
        };
        WatchCheck: {
            eventId: string | null;
            /** @description Whether the check emitted an event (the first check of a watch only establishes its baseline). */
            changed: boolean;
            /** @description queued: an event waits for delivery; none: nothing to deliver. */
            delivery: "queued" | "none";
        };
        DeliveryStatus: "PENDING" | "DELIVERING" | "RETRY" | "DELIVERED" | "DEAD_LETTER" | "CANCELLED";
        MonitorEvent: {
            id: string;
            watchId: string;
            kind: components["schemas"]["WatchKind"];
            /** @description kind did: the watched identifier. */
            did?: string;
            /** @description kind mcp: the watched MCP endpoint URL. */
            mcpEndpoint?: string;
            /** @description kind a2a: the watched agent card URL (or origin), as registered. */
            a2aCard?: string;
            eventType: components["schemas"]["MonitorEventType"];
            data: components["schemas"]["MonitorEventData"];
            createdAt: string;
            deliveryStatus: components["schemas"]["DeliveryStatus"];
            /** @description Attempts of the current delivery (a replay starts them again from 0). */
            attempts: number;
            /** @description How often an operator replayed the event (0: never; svc never replays by itself). */
            replays: number;
        };
        MonitorEventList: {
            events: components["schemas"]["MonitorEvent"][];
        };
        MonitoringStatus: {
            watches: number;
            events: number;
            eventsByStatus: {
                PENDING: number;
                DELIVERING: number;
                RETRY: number;
                DELIVERED: number;
                DEAD_LETTER: number;
                CANCELLED: number;
            };
            dueDeliveries: number;
            expiredLeases: number;
            eventPayloadBytes: number;
            watchLimit: number;
            eventLimit: number;
            eventPayloadLimitBytes: number;
            /** @description Active watches whose webhook the receiver disabled (410 Gone): re-enable it, then replay what was cancelled. */
            disabledWebhooks: number;
            /** @description Replays of stored events, summed (an event replayed twice counts 2). */
            replays: number;
            /** @description Stored events per type: every type is a key, 0 where none. */
            eventsByType: {
                "identity.document.changed": number;
                "identity.domain_binding.changed": number;
                "identity.deactivated": number;
                "identity.resolution.failed": number;
                "identity.resolution.recovered": number;
                "identity.history.rewritten": number;
                "mcp.inventory.changed": number;
                "mcp.inspection.failed": number;
                "mcp.inspection.recovered": number;
                "a2a.card.changed": number;
                "a2a.inspection.failed": number;
                "a2a.inspection.recovered": number;
                "tls.certificate.expiring": number;
                "tls.certificate.changed": number;
            };
        };
        RetentionPreview: {
            /**
             * @description Always true: this is a preview, nothing is deleted.
             * @enum {boolean}
             */
            dryRun: true;
            /** @description The instant the rows are compared with, in UTC at whole seconds (a fraction rounds up to the next second): a row counts only when it is strictly before it. */
            cutoff: string;
            /** @description How many rows a cleanup at this cutoff could remove, per table. Counts only: no identifier, no payload. */
            candidateCounts: {
                observations: number;
                mcpObservations: number;
                terminalMonitorEvents: number;
            };
            /** @description The rows that are never counted, in plain words. */
            preservationRules: string[];
            /** @description What the preview does not promise. */
            limitations: string;
        };
        WatchWebhook: {
            watch: components["schemas"]["Watch"];
        };
        DeliveryAttempt: {
            /** @description The delivery the attempt belongs to: 0 the first, n the n-th replay. */
            replay: number;
            /** @description The attempt within that delivery (five in all). */
            attempt: number;
            /** @description RFC 3339 UTC (database clock): when the attempt was sent. */
            attemptedAt: string;
            responseStatus: number | null;
            /** @description What the attempt decided: WEBHOOK_DISABLED after a 410 Gone; CANCELLED when nothing was sent (watch removed, webhook disabled). */
            decision: "DELIVERED" | "RETRY" | "DEAD_LETTER" | "WEBHOOK_DISABLED" | "CANCELLED";
            /** @description One line: what the receiver answered and why the decision (e.g. a Retry-After honoured). */
            detail: string;
            nextAttemptAt: string | null;
        };
        DeliveryAttemptList: {
            eventId: string;
            /** @description Oldest first, replays included. */
            attempts: components["schemas"]["DeliveryAttempt"][];
        };
        MonitorEventReplay: {
            event: components["schemas"]["MonitorEvent"];
        };
        WatchReplay: {
            /** @description The replayed events, oldest first: each PENDING again, due now. */
            replayed: string[];
            count: number;
        };
        /** @description signature: a compact JWS by a key under authentication; well-known: the token at https://<host>/.well-known/svc-claim.txt; dns: the token in a TXT record _svc-claim.<host>. */
        ClaimMethod: "signature" | "well-known" | "dns";
        /** @description claim: prove control only; list: prove control and opt in to the directory; unlist: prove control and leave the directory. */
        ClaimPurpose: "claim" | "list" | "unlist";
        ClaimRefusalCode: "CHALLENGE_UNKNOWN" | "CHALLENGE_EXPIRED" | "CHALLENGE_USED" | "CHALLENGE_EXHAUSTED" | "JWS_MISSING" | "JWS_MALFORMED" | "JWS_UNSUPPORTED" | "PAYLOAD_MISMATCH" | "SIGNER_MISMATCH" | "DID_UNRESOLVED" | "DID_DEACTIVATED" | "KEY_NOT_FOUND" | "KEY_NOT_AUTHENTICATION" | "SIGNATURE_INVALID" | "TOKEN_MISMATCH" | "FILE_NOT_FOUND" | "FILE_UNAVAILABLE" | "FILE_TOO_LARGE" | "HOST_UNREACHABLE" | "EGRESS_BLOCKED" | "RECORD_ABSENT" | "DNS_UNAVAILABLE";
        ClaimChallengeRequest: {
            /** @description The DID whose control is to be shown. */
            did: string;
            method: components["schemas"]["ClaimMethod"];
            purpose?: components["schemas"]["ClaimPurpose"];
            /** @description How long the challenge holds: signature 600 s by default (at most 900), well-known and dns 3600 s (at most 86400). */
            expiresInSeconds?: number;
        };
        ClaimChallenge: {
            did: string;
            method: components["schemas"]["ClaimMethod"];
            purpose: components["schemas"]["ClaimPurpose"];
            /** @description 32 random bytes, base64url: what is signed, hosted or published, and what the proof is submitted with. */
            token: string;
            /** @description When the challenge was made. RFC 3339 UTC. */
            createdAt: string;
            /** @description After this the challenge cannot be used. RFC 3339 UTC. */
            expiresAt: string;
            /** @description Verification attempts the challenge allows (5); it is used up by the first success. */
            attemptsAllowed: number;
            /** @description What to do, then how to submit the proof. */
            instructions: string;
            signature: {
                /** @description What the signature states: {aud: "svc-claim", did, token, purpose, iat, exp}. */
                statement: {
                    [key: string]: unknown;
                };
                /** @description The exact JWS payload: base64url of the statement in RFC 8785 form. */
                payload: string;
                /** @enum {string} */
                relationship: "authentication";
            } | null;
            wellKnown: {
                url: string;
                /** @description A line the file must hold. */
                content: string;
            } | null;
            dns: {
                name: string;
                /** @enum {string} */
                type: "TXT";
                /** @description Any one TXT record at the name may hold it. */
                value: string;
            } | null;
        };
        ClaimProofRequest: {
            /** @description The DID of the challenge. */
            did: string;
            /** @description The challenge token. */
            token: string;
            /** @description signature: the compact JWS over the challenge payload. */
            jws?: string;
        };
        Claim: {
            method: components["schemas"]["ClaimMethod"];
            /** @description What acted: the key id (signature), the file URL (well-known), the TXT record name (dns). */
            subject: string;
            proves: string;
            doesNotProve: string[];
            /** @description When the proof was first verified. RFC 3339 UTC. */
            verifiedAt: string;
            /** @description The last successful check (the proof or a re-check). RFC 3339 UTC. */
            lastCheckedAt: string;
            /** @description When the claim lapses unless a re-check holds it. RFC 3339 UTC. */
            expiresAt: string;
            nextCheckAt: string | null;
        };
        LapsedClaim: {
            method: components["schemas"]["ClaimMethod"];
            subject: string;
            verifiedAt: string;
            lapsedAt: string;
            /** @description Why the claim lapsed: the proof disappeared, it expired unchecked, a newer proof replaced it. */
            reason: string;
        };
        ClaimRefusal: {
            code: components["schemas"]["ClaimRefusalCode"];
            reason: string;
        };
        ClaimVerification: {
            did: string;
            token: string;
            method: components["schemas"]["ClaimMethod"] | null;
            purpose: components["schemas"]["ClaimPurpose"] | null;
            status: "VERIFIED" | "REFUSED";
            verified: boolean;
            refusal: components["schemas"]["ClaimRefusal"] | null;
            claim: components["schemas"]["Claim"] | null;
            listed: boolean | null;
            checkedAt: string;
        };
        ClaimList: {
            did: string;
            /** @description Current, unexpired claims, newest first. */
            claims: components["schemas"]["Claim"][];
            /** @description The latest claims that lapsed (at most 10), newest first. */
            lapsed: components["schemas"]["LapsedClaim"][];
            /** @description Whether the DID is in the directory (its controller opted in and a claim holds). */
            listed: boolean;
            limitations: string[];
        };
        DirectoryEntry: {
            did: string;
            /** @description The DID method: web, key, jwk or webvh. */
            method: string;
            /** @description When the controller opted in. RFC 3339 UTC. */
            listedAt: string;
            /** @description The current claims behind the listing. */
            claims: {
                method: components["schemas"]["ClaimMethod"];
                verifiedAt: string;
                expiresAt: string;
            }[];
        };
        DirectoryPage: {
            entries: components["schemas"]["DirectoryEntry"][];
            nextCursor: string | null;
        };
        Project: {
            /** @description prj_ and 22 base64url characters. */
            id: string;
            tenantId: string;
            name: string;
            /** @description RFC 3339 UTC (the database clock). */
            createdAt: string;
        };
        Tenant: {
            /** @description ten_ and 22 base64url characters. */
            id: string;
            name: string;
            /** @description The founding owner (a DID), kept as founded. */
            owner: string;
            /** @description RFC 3339 UTC (the database clock). */
            createdAt: string;
            /** @description The subjects (DIDs) that own the tenant now, by when they were attached. */
            owners: string[];
        };
        TenantRequest: {
            name: string;
            /** @description The first owner: a DID (it signs in to the owner console). */
            owner: string;
        };
        TenantCreated: {
            tenant: components["schemas"]["Tenant"];
        };
        TenantList: {
            /** @description Every tenant, oldest first, with its projects (oldest first). */
            tenants: {
                /** @description ten_ and 22 base64url characters. */
                id: string;
                name: string;
                /** @description The founding owner (a DID), kept as founded. */
                owner: string;
                /** @description RFC 3339 UTC (the database clock). */
                createdAt: string;
                /** @description The subjects (DIDs) that own the tenant now, by when they were attached. */
                owners: string[];
                projects: components["schemas"]["Project"][];
            }[];
        };
        ProjectRequest: {
            name: string;
        };
        ProjectCreated: {
            project: components["schemas"]["Project"];
        };
        OwnerRequest: {
            /** @description The DID to attach as an owner. */
            subject: string;
        };
        TenantOwners: {
            tenantId: string;
            owners: string[];
        };
        ProjectUsage: {
            projectId: string;
            /** @description By period, then metric. Nothing is charged: billing is a mock (usage is counted only). */
            usage: {
                /** @description requests: keyed requests served. */
                metric: string;
                /** @description The month, YYYY-MM (UTC). */
                period: string;
                count: number;
            }[];
        };
        ApiKeyMetadata: {
            /** @description key_ and 22 base64url characters. */
            id: string;
            projectId: string;
            /** @description The first 12 characters of the secret (svck_ and 7 more), to tell keys apart. */
            prefix: string;
            label: string | null;
            status: "ACTIVE" | "ROTATED" | "REVOKED";
            createdAt: string;
            lastUsedAt: string | null;
            revokedAt: string | null;
            replacesKeyId: string | null;
        };
        ApiKeyList: {
            /** @description Newest first. */
            keys: components["schemas"]["ApiKeyMetadata"][];
        };
        KeyRequest: {
            /** @description A label of the owner’s choice (1 to 100 characters). */
            label?: string;
        };
        KeyIssued: {
            key: components["schemas"]["ApiKeyMetadata"];
            /** @description The key (svck_ and 43 base64url characters), shown only in this answer: present it as Authorization: Bearer <key>. */
            secret: string;
        };
        KeyRotated: {
            key: components["schemas"]["ApiKeyMetadata"];
            /** @description The key (svck_ and 43 base64url characters), shown only in this answer: present it as Authorization: Bearer <key>. */
            secret: string;
            replaced: components["schemas"]["ApiKeyMetadata"];
        };
        Plan: {
            id: string;
            name: string;
            /** @description ISO 4217. */
            currency: string;
            /** @description The monthly price in minor units (cents). */
            monthlyPriceMinor: number;
            /** @description Keyed requests a month includes. */
            includedRequests: number;
            /** @description Only an active plan takes new subscriptions. */
            active: boolean;
            createdAt: string;
        };
        PlanRequest: {
            id: string;
            name: string;
            currency: string;
            monthlyPriceMinor: number;
            includedRequests: number;
            /** @description Default true. */
            active?: boolean;
        };
        PlanList: {
            /** @description By id. */
            plans: components["schemas"]["Plan"][];
        };
        PlanSaved: {
            plan: components["schemas"]["Plan"];
        };
        Subscription: {
            tenantId: string;
            planId: string;
            startedAt: string;
        };
        SubscriptionRequest: {
            plan: string;
        };
        SubscriptionSaved: {
            subscription: components["schemas"]["Subscription"];
        };
        Invoice: {
            /** @description inv_ and 22 base64url characters. */
            id: string;
            tenantId: string;
            /** @description The month’s first instant, RFC 3339 UTC. */
            periodStart: string;
            /** @description The next month’s first instant. */
            periodEnd: string;
            currency: string;
            totalMinor: number;
            /** @description OPEN: what would be charged. No payment provider is involved: nothing is ever collected. */
            status: "DRAFT" | "OPEN" | "PAID" | "VOID";
            createdAt: string;
        };
        LedgerEntry: {
            id: number;
            tenantId: string;
            invoiceId: string | null;
            kind: "CHARGE" | "CREDIT" | "PAYMENT" | "ADJUSTMENT";
            amountMinor: number;
            description: string;
            createdAt: string;
        };
        PeriodRequest: {
            /** @description The month to close, YYYY-MM (UTC), from 0000-01 to 9999-11: the end of 9999-12 would lie beyond the instants svc stores. */
            period: string;
        };
        PeriodClosed: {
            invoice: components["schemas"]["Invoice"];
            entries: components["schemas"]["LedgerEntry"][];
        };
        TenantBilling: {
            tenantId: string;
            subscription: components["schemas"]["Subscription"] | null;
            plan: components["schemas"]["Plan"] | null;
            /** @description Oldest first. */
            invoices: components["schemas"]["Invoice"][];
            /** @description Oldest first. */
            ledger: components["schemas"]["LedgerEntry"][];
        };
        ProjectWatch: {
            /** @description wch_<n>. */
            id: string;
            projectId: string;
            /** @description A DID watch: the identifier. */
            did?: string;
            /** @description An MCP watch: the endpoint URL. */
            mcpEndpoint?: string;
            /** @description An A2A watch: the card URL (or origin), as registered. */
            a2aCard?: string;
            /** Format: date-time */
            createdAt: string;
            lastStatus: string | null;
            lastHash: string | null;
            lastCheckedAt: string | null;
            /**
             * Format: date-time
             * @description When the watch is next due (hourly).
             */
            nextDueAt: string;
        };
        ProjectWatchRequest: {
            /** @description A did:key, did:jwk or did:web identifier (or mcpEndpoint, or a2aCard: exactly one). */
            did?: string;
            /** @description The https URL of a Streamable HTTP MCP endpoint: its inventory is watched. */
            mcpEndpoint?: string;
            /** @description An A2A agent's origin or card URL: its card is watched. */
            a2aCard?: string;
            /** @description mcpEndpoint and a2aCard only: an approved baseline file as JSON (svc-mcp-baseline or svc-a2a-baseline) holding the entry approved from this subject; the first check compares with it. */
            baseline?: {
                [key: string]: unknown;
            };
        };
        ProjectWatchCreated: {
            watch: components["schemas"]["ProjectWatch"];
            /** @description Whether this daemon runs the automatic worker (hourly checks, deliveries). */
            workerActive: boolean;
        };
        ProjectWatchList: {
            /** @description Active watches, oldest first. */
            watches: components["schemas"]["ProjectWatch"][];
            /** @description Whether this daemon runs the automatic worker: without it nothing is checked or delivered. */
            workerActive: boolean;
            /**
             * @description Every watch is due hourly.
             * @enum {number}
             */
            intervalSeconds: 3600;
            /** @description Active watches a project may have. */
            limit: number;
        };
        CustomerEvent: {
            /** @description evt_<n>: stable; receivers deduplicate on it. */
            id: string;
            type: components["schemas"]["MonitorEventType"];
            /** @description The project the event belongs to: receivers bind it to their owner. */
            projectId: string;
            /** @description wch_<n>. */
            watchId: string;
            /** @description A DID watch: the identifier. */
            did?: string;
            /** @description An MCP watch: the endpoint URL. */
            mcpEndpoint?: string;
            /** @description An A2A watch: the card URL (or origin), as registered. */
            a2aCard?: string;
            /**
             * Format: date-time
             * @description When the event was recorded; its unix seconds are the signature's t.
             */
            createdAt: string;
            data: components["schemas"]["MonitorEventData"];
        };
        CustomerEventList: {
            /** @description Newest first: every event of the last 30 days (at most 200). */
            events: components["schemas"]["CustomerEvent"][];
            /** Format: date-time */
            windowStart: string;
        };
        EventPageRequest: {
            limit: number;
            /**
             * Format: date-time
             * @description Only events recorded at or before this instant (first page; later pages repeat it), from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
             */
            asOf?: string;
            /** @description The watermark of an earlier page (opaque: pass it back as received). */
            snapshotEventId?: string;
            /** @description The cursor of an earlier page (needs snapshotEventId). */
            beforeEventId?: string;
        };
        EventPage: {
            /** @description Newest first, in persistence order. */
            events: components["schemas"]["CustomerEvent"][];
            snapshotEventId: string | null;
            asOf: string | null;
            hasMore: boolean;
            next: {
                snapshotEventId: string;
                beforeEventId: string;
                /**
                 * Format: date-time
                 * @description Present when the first page named one.
                 */
                asOf?: string;
            } | null;
        };
        WatchReport: {
            watch: components["schemas"]["ProjectWatch"];
            /** Format: date-time */
            windowStart: string;
            /** Format: date-time */
            windowEnd: string;
            eventCount: number;
            /** @description Events of the window per type. */
            eventsByType: {
                [key: string]: number;
            };
            /** @description Every event of the window, oldest first: the report is complete or refused. */
            events: components["schemas"]["CustomerEvent"][];
        };
        CustomerWebhookConfig: {
            id: string;
            url: string;
            /** Format: date-time */
            createdAt: string;
            active: boolean;
            disabledAt: string | null;
            disabledReason: string | null;
        };
        CustomerWebhookRequest: {
            /** @description An https URL whose host resolves to public addresses (the egress policy), checked now and at every delivery. */
            url: string;
        };
        CustomerWebhookCreated: {
            config: components["schemas"]["CustomerWebhookConfig"];
            /** @description The signing secret (whsec_…): in this answer only. Verify X-SVC-Signature with it. */
            secret: string;
        };
        CustomerWebhookState: {
            config: components["schemas"]["CustomerWebhookConfig"] | null;
            /** @description Whether this daemon runs the automatic worker that delivers. */
            workerActive: boolean;
        };
        CustomerDelivery: {
            id: string;
            /** @description evt_<n>: stable; receivers deduplicate on it. */
            eventId: string;
            eventType: components["schemas"]["MonitorEventType"];
            /** @description wch_<n>. */
            watchId: string;
            webhookId: string;
            /** Format: date-time */
            createdAt: string;
            status: components["schemas"]["DeliveryStatus"];
            attempts: number;
            nextAttemptAt: string | null;
            lastAttemptAt: string | null;
            deliveredAt: string | null;
            /** @description The attempts' decisions, newest first (at most 10). */
            decisions: {
                /** @description 0: the first delivery; n: the n-th replay. */
                replay: number;
                attempt: number;
                /** Format: date-time */
                attemptedAt: string;
                decision: "DELIVERED" | "RETRY" | "DEAD_LETTER" | "WEBHOOK_DISABLED" | "CANCELLED";
                /** @description One line: what the receiver answered and why the decision. */
                detail: string;
                nextAttemptAt: string | null;
            }[];
        };
        CustomerDeliveryList: {
            /** @description The newest 100 of the last 30 days; metadata only. */
            deliveries: components["schemas"]["CustomerDelivery"][];
        };
        ScheduledUsage: {
            projectId: string;
            /** @description Scheduled attempts per rolling 30 days. */
            allowance: number;
            /** Format: date-time */
            windowStart: string;
            /** @description Attempts in the window, failed ones included. */
            used: number;
            failed: number;
            remaining: number;
            /** @description Due checks skipped in the window because the allowance was used up. */
            skipped: number;
            lastSkippedAt: string | null;
            activeWatches: number;
            nextDueAt: string | null;
        };
        ScheduledUsageList: {
            /** @description The owner's projects, oldest first. */
            projects: components["schemas"]["ScheduledUsage"][];
            workerActive: boolean;
            /** @enum {number} */
            intervalSeconds: 3600;
            /** @description How often this daemon looks for due work. */
            pollSeconds: number;
        };
        CustomerDeliveryReplay: {
            delivery: components["schemas"]["CustomerDelivery"];
        };
        CustomerWatchReplay: {
            /** @description The deliveries queued again to the active webhook, one per event (oldest event first). */
            replayed: string[];
            count: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type TraceStage = components['schemas']['TraceStage'];
export type Problem = components['schemas']['Problem'];
export type Health = components['schemas']['Health'];
export type Ready = components['schemas']['Ready'];
export type ServiceStatus = components['schemas']['ServiceStatus'];
export type DimensionId = components['schemas']['DimensionId'];
export type DimensionState = components['schemas']['DimensionState'];
export type Outcome = components['schemas']['Outcome'];
export type Relationship = components['schemas']['Relationship'];
export type KeyStatus = components['schemas']['KeyStatus'];
export type DomainBindingStatus = components['schemas']['DomainBindingStatus'];
export type EdgeState = components['schemas']['EdgeState'];
export type WebvhCheck = components['schemas']['WebvhCheck'];
export type DidDocument = components['schemas']['DidDocument'];
export type DidDocumentMetadata = components['schemas']['DidDocumentMetadata'];
export type DidResolutionMetadata = components['schemas']['DidResolutionMetadata'];
export type Verdict = components['schemas']['Verdict'];
export type Dimension = components['schemas']['Dimension'];
export type SourceEvidence = components['schemas']['SourceEvidence'];
export type DocumentEvidence = components['schemas']['DocumentEvidence'];
export type Multicodec = components['schemas']['Multicodec'];
export type KeyEvidence = components['schemas']['KeyEvidence'];
export type ServiceEvidence = components['schemas']['ServiceEvidence'];
export type LinkageCredentialEvidence = components['schemas']['LinkageCredentialEvidence'];
export type DomainBindingEvidence = components['schemas']['DomainBindingEvidence'];
export type CertificateEvidence = components['schemas']['CertificateEvidence'];
export type TlsEvidence = components['schemas']['TlsEvidence'];
export type WebvhEntryEvidence = components['schemas']['WebvhEntryEvidence'];
export type WebvhWitnessFileEvidence = components['schemas']['WebvhWitnessFileEvidence'];
export type LogRewrite = components['schemas']['LogRewrite'];
export type KeptLogEvidence = components['schemas']['KeptLogEvidence'];
export type HistoryEvidence = components['schemas']['HistoryEvidence'];
export type WhoisStatus = components['schemas']['WhoisStatus'];
export type WhoisCredentialEvidence = components['schemas']['WhoisCredentialEvidence'];
export type WhoisEvidence = components['schemas']['WhoisEvidence'];
export type Evidence = components['schemas']['Evidence'];
export type GraphNode = components['schemas']['GraphNode'];
export type GraphEdge = components['schemas']['GraphEdge'];
export type EnrichedResolution = components['schemas']['EnrichedResolution'];
export type EvidenceBundle = components['schemas']['EvidenceBundle'];
export type FastDidVerdict = components['schemas']['FastDidVerdict'];
export type GraphResponse = components['schemas']['GraphResponse'];
export type Observation = components['schemas']['Observation'];
export type ObservationHistory = components['schemas']['ObservationHistory'];
export type SemanticDiff = components['schemas']['SemanticDiff'];
export type DereferencingResult = components['schemas']['DereferencingResult'];
export type W3cResolutionResult = components['schemas']['W3cResolutionResult'];
export type W3cErrorResolutionResult = components['schemas']['W3cErrorResolutionResult'];
export type CheckStatus = components['schemas']['CheckStatus'];
export type CredentialCheck = components['schemas']['CredentialCheck'];
export type ProofSummary = components['schemas']['ProofSummary'];
export type StatusListEntry = components['schemas']['StatusListEntry'];
export type IssuerResolutionSummary = components['schemas']['IssuerResolutionSummary'];
export type KeyBindingSummary = components['schemas']['KeyBindingSummary'];
export type DisclosureSummary = components['schemas']['DisclosureSummary'];
export type IssuerTrust = components['schemas']['IssuerTrust'];
export type CredentialVerification = components['schemas']['CredentialVerification'];
export type JwsVerification = components['schemas']['JwsVerification'];
export type RuleEvaluation = components['schemas']['RuleEvaluation'];
export type PolicyEvaluation = components['schemas']['PolicyEvaluation'];
export type PolicyDecision = components['schemas']['PolicyDecision'];
export type CredentialVerifyRequest = components['schemas']['CredentialVerifyRequest'];
export type JwsVerifyRequest = components['schemas']['JwsVerifyRequest'];
export type PolicyRules = components['schemas']['PolicyRules'];
export type Policy = components['schemas']['Policy'];
export type PolicyEvaluateRequest = components['schemas']['PolicyEvaluateRequest'];
export type PresentationCheck = components['schemas']['PresentationCheck'];
export type EmbeddedCredential = components['schemas']['EmbeddedCredential'];
export type PresentationVerification = components['schemas']['PresentationVerification'];
export type PresentationVerifyRequest = components['schemas']['PresentationVerifyRequest'];
export type VcApiProblemDetails = components['schemas']['VcApiProblemDetails'];
export type VcApiVerificationResult = components['schemas']['VcApiVerificationResult'];
export type VcApiVerifyOptions = components['schemas']['VcApiVerifyOptions'];
export type VcApiVerifyCredentialRequest = components['schemas']['VcApiVerifyCredentialRequest'];
export type VcApiVerifyPresentationOptions = components['schemas']['VcApiVerifyPresentationOptions'];
export type VcApiVerifyPresentationRequest = components['schemas']['VcApiVerifyPresentationRequest'];
export type ChainStatus = components['schemas']['ChainStatus'];
export type DelegationLinkCheck = components['schemas']['DelegationLinkCheck'];
export type DelegationChainCheck = components['schemas']['DelegationChainCheck'];
export type DelegationLink = components['schemas']['DelegationLink'];
export type DelegationChainResult = components['schemas']['DelegationChainResult'];
export type Authorization = components['schemas']['Authorization'];
export type DelegationVerification = components['schemas']['DelegationVerification'];
export type AuthorizeResponse = components['schemas']['AuthorizeResponse'];
export type VerifyDelegationRequest = components['schemas']['VerifyDelegationRequest'];
export type AuthorizeRequest = components['schemas']['AuthorizeRequest'];
export type McpCheck = components['schemas']['McpCheck'];
export type RiskSignal = components['schemas']['RiskSignal'];
export type ToolParameter = components['schemas']['ToolParameter'];
export type McpTool = components['schemas']['McpTool'];
export type McpPrompt = components['schemas']['McpPrompt'];
export type McpResource = components['schemas']['McpResource'];
export type McpResourceTemplate = components['schemas']['McpResourceTemplate'];
export type InventoryDrift = components['schemas']['InventoryDrift'];
export type BaselineDrift = components['schemas']['BaselineDrift'];
export type McpAuth = components['schemas']['McpAuth'];
export type McpTranscriptEntry = components['schemas']['McpTranscriptEntry'];
export type McpInspection = components['schemas']['McpInspection'];
export type A2aCheck = components['schemas']['A2aCheck'];
export type A2aInterface = components['schemas']['A2aInterface'];
export type A2aSkill = components['schemas']['A2aSkill'];
export type A2aSignature = components['schemas']['A2aSignature'];
export type A2aInspection = components['schemas']['A2aInspection'];
export type A2aBaselineComparison = components['schemas']['A2aBaselineComparison'];
export type McpInspectBaselineRequest = components['schemas']['McpInspectBaselineRequest'];
export type A2aInspectBaselineRequest = components['schemas']['A2aInspectBaselineRequest'];
export type MonitorEventType = components['schemas']['MonitorEventType'];
export type MonitorRewriteSide = components['schemas']['MonitorRewriteSide'];
export type IdentityEventData = components['schemas']['IdentityEventData'];
export type McpInventoryChangedData = components['schemas']['McpInventoryChangedData'];
export type A2aCardChangedData = components['schemas']['A2aCardChangedData'];
export type TargetInspectionData = components['schemas']['TargetInspectionData'];
export type TlsCertificate = components['schemas']['TlsCertificate'];
export type TlsCertificateExpiringData = components['schemas']['TlsCertificateExpiringData'];
export type TlsCertificateChangedData = components['schemas']['TlsCertificateChangedData'];
export type MonitorEventData = components['schemas']['MonitorEventData'];
export type WebhookEnvelope = components['schemas']['WebhookEnvelope'];
export type WatchKind = components['schemas']['WatchKind'];
export type Watch = components['schemas']['Watch'];
export type WatchRequest = components['schemas']['WatchRequest'];
export type WatchCreated = components['schemas']['WatchCreated'];
export type WatchList = components['schemas']['WatchList'];
export type WatchCheck = components['schemas']['WatchCheck'];
export type DeliveryStatus = components['schemas']['DeliveryStatus'];
export type MonitorEvent = components['schemas']['MonitorEvent'];
export type MonitorEventList = components['schemas']['MonitorEventList'];
export type MonitoringStatus = components['schemas']['MonitoringStatus'];
export type RetentionPreview = components['schemas']['RetentionPreview'];
export type WatchWebhook = components['schemas']['WatchWebhook'];
export type DeliveryAttempt = components['schemas']['DeliveryAttempt'];
export type DeliveryAttemptList = components['schemas']['DeliveryAttemptList'];
export type MonitorEventReplay = components['schemas']['MonitorEventReplay'];
export type WatchReplay = components['schemas']['WatchReplay'];
export type ClaimMethod = components['schemas']['ClaimMethod'];
export type ClaimPurpose = components['schemas']['ClaimPurpose'];
export type ClaimRefusalCode = components['schemas']['ClaimRefusalCode'];
export type ClaimChallengeRequest = components['schemas']['ClaimChallengeRequest'];
export type ClaimChallenge = components['schemas']['ClaimChallenge'];
export type ClaimProofRequest = components['schemas']['ClaimProofRequest'];
export type Claim = components['schemas']['Claim'];
export type LapsedClaim = components['schemas']['LapsedClaim'];
export type ClaimRefusal = components['schemas']['ClaimRefusal'];
export type ClaimVerification = components['schemas']['ClaimVerification'];
export type ClaimList = components['schemas']['ClaimList'];
export type DirectoryEntry = components['schemas']['DirectoryEntry'];
export type DirectoryPage = components['schemas']['DirectoryPage'];
export type Project = components['schemas']['Project'];
export type Tenant = components['schemas']['Tenant'];
export type TenantRequest = components['schemas']['TenantRequest'];
export type TenantCreated = components['schemas']['TenantCreated'];
export type TenantList = components['schemas']['TenantList'];
export type ProjectRequest = components['schemas']['ProjectRequest'];
export type ProjectCreated = components['schemas']['ProjectCreated'];
export type OwnerRequest = components['schemas']['OwnerRequest'];
export type TenantOwners = components['schemas']['TenantOwners'];
export type ProjectUsage = components['schemas']['ProjectUsage'];
export type ApiKeyMetadata = components['schemas']['ApiKeyMetadata'];
export type ApiKeyList = components['schemas']['ApiKeyList'];
export type KeyRequest = components['schemas']['KeyRequest'];
export type KeyIssued = components['schemas']['KeyIssued'];
export type KeyRotated = components['schemas']['KeyRotated'];
export type Plan = components['schemas']['Plan'];
export type PlanRequest = components['schemas']['PlanRequest'];
export type PlanList = components['schemas']['PlanList'];
export type PlanSaved = components['schemas']['PlanSaved'];
export type Subscription = components['schemas']['Subscription'];
export type SubscriptionRequest = components['schemas']['SubscriptionRequest'];
export type SubscriptionSaved = components['schemas']['SubscriptionSaved'];
export type Invoice = components['schemas']['Invoice'];
export type LedgerEntry = components['schemas']['LedgerEntry'];
export type PeriodRequest = components['schemas']['PeriodRequest'];
export type PeriodClosed = components['schemas']['PeriodClosed'];
export type TenantBilling = components['schemas']['TenantBilling'];
export type ProjectWatch = components['schemas']['ProjectWatch'];
export type ProjectWatchRequest = components['schemas']['ProjectWatchRequest'];
export type ProjectWatchCreated = components['schemas']['ProjectWatchCreated'];
export type ProjectWatchList = components['schemas']['ProjectWatchList'];
export type CustomerEvent = components['schemas']['CustomerEvent'];
export type CustomerEventList = components['schemas']['CustomerEventList'];
export type EventPageRequest = components['schemas']['EventPageRequest'];
export type EventPage = components['schemas']['EventPage'];
export type WatchReport = components['schemas']['WatchReport'];
export type CustomerWebhookConfig = components['schemas']['CustomerWebhookConfig'];
export type CustomerWebhookRequest = components['schemas']['CustomerWebhookRequest'];
export type CustomerWebhookCreated = components['schemas']['CustomerWebhookCreated'];
export type CustomerWebhookState = components['schemas']['CustomerWebhookState'];
export type CustomerDelivery = components['schemas']['CustomerDelivery'];
export type CustomerDeliveryList = components['schemas']['CustomerDeliveryList'];
export type ScheduledUsage = components['schemas']['ScheduledUsage'];
export type ScheduledUsageList = components['schemas']['ScheduledUsageList'];
export type CustomerDeliveryReplay = components['schemas']['CustomerDeliveryReplay'];
export type CustomerWatchReplay = components['schemas']['CustomerWatchReplay'];
export type $defs = Record<string, never>;
export interface operations {
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service is up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description INVALID_OPTIONS: a query option was given (this route takes none); INVALID_REQUEST: no Host header, or malformed percent-encoding */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the daemon is shutting down (Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ready"];
                };
            };
            /** @description INVALID_OPTIONS: a query option was given (this route takes none); INVALID_REQUEST: no Host header, or malformed percent-encoding */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_READY: storage or schema unavailable, or shutting down (Retry-After: 5); SERVICE_UNAVAILABLE: the daemon is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    status: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Component status (degraded while the store is unavailable or the daemon drains) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceStatus"];
                };
            };
            /** @description INVALID_OPTIONS: a query option was given (this route takes none); INVALID_REQUEST: no Host header, or malformed percent-encoding */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the daemon is shutting down (Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    metrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every metric, collected now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description INVALID_OPTIONS: a query option was given (this route takes none); INVALID_REQUEST: no Host header, or malformed percent-encoding */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no operator token, or not this daemon's */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: the metrics are off (SVC_METRICS=off) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITORING_DISABLED: the daemon has no operator token (SVC_ADMIN_TOKEN unset or shorter than 24 characters) */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the daemon is shutting down (Retry-After) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resolve: {
        parameters: {
            query?: {
                /** @description Bypass and refresh the resolution cache: true (also 1 or empty) or false (also 0). */
                noCache?: "true" | "1" | "" | "false" | "0";
                /** @description did:webvh: the version with this versionId. */
                versionId?: string;
                /** @description did:webvh: the version in force at this RFC 3339 time. */
                versionTime?: string;
                /** @description did:webvh: the version with this number (a positive integer). */
                versionNumber?: string;
                /** @description true (also 1 or empty): sign the answer — its svc-signature header carries a detached JWS over the RFC 8785 form of the body. A daemon without a signing key (its operator's SVC_SIGNING_KEY) answers 400 INVALID_OPTIONS, never an unsigned result. */
                signed?: "true" | "1" | "" | "false" | "0";
                /** @description true: answer the evidence bundle of a fresh resolution (never from the cache) instead of the result: the bytes fetched, their TLS chains and the result, application/vnd.svc.evidence-bundle+json, to re-check offline with svc verify-bundle; signed (its signature member) when the daemon has a signing key. */
                bundle?: "true" | "1" | "" | "false" | "0";
            };
            header?: never;
            path: {
                /** @description The DID, raw or fully percent-encoded. */
                did: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The enriched resolution (with bundle=true: its evidence bundle) */
            200: {
                headers: {
                    /** @description Only when the request asked signed=true: a compact detached JWS (header..signature, RFC 7515 Appendix F, typ svc-result+jws) over the RFC 8785 form of this body, by the key /health names as signer. Verify it with the clients, or as docs/daemon.md#signed-results says. */
                    "svc-signature"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrichedResolution"];
                    "application/vnd.svc.evidence-bundle+json": components["schemas"]["EvidenceBundle"];
                };
            };
            /** @description INVALID_DID, INVALID_OPTIONS (unknown or repeated query option, bad value, signed=true on a daemon without a signing key); INVALID_REQUEST (no Host header, malformed percent-encoding) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description EGRESS_BLOCKED: the DID's host resolves to an address that is not public */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: the document (or the version asked for) does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The DID is deactivated: the full result, verdict.outcome DEACTIVATED */
            410: {
                headers: {
                    /** @description Only when the request asked signed=true: a compact detached JWS (header..signature, RFC 7515 Appendix F, typ svc-result+jws) over the RFC 8785 form of this body, by the key /health names as signer. Verify it with the clients, or as docs/daemon.md#signed-results says. */
                    "svc-signature"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrichedResolution"];
                    "application/vnd.svc.evidence-bundle+json": components["schemas"]["EvidenceBundle"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: a fetched resource is over its size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INVALID_DID_DOCUMENT: the fetched document or log is invalid (id mismatch, not JSON, a did:webvh log that does not verify) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description METHOD_NOT_SUPPORTED, FEATURE_NOT_SUPPORTED */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the DID's host failed or timed out (DNS, TLS, HTTP) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (shutting down) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    stream: {
        parameters: {
            query?: {
                /** @description Bypass and refresh the resolution cache: true (also 1 or empty) or false (also 0). */
                noCache?: "true" | "1" | "" | "false" | "0";
            };
            header?: never;
            path: {
                /** @description The DID, raw or fully percent-encoded. */
                did: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream of frames */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description INVALID_OPTIONS (unknown or repeated query option, bad noCache), INVALID_DID (no identifier); INVALID_REQUEST (no Host header, malformed percent-encoding) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (shutting down) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    dereference: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The DID URL, raw or fully percent-encoded; a fragment delimiter is written %23. The request query is the DID URL query. */
                didUrl: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dereferencing result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DereferencingResult"];
                };
            };
            /** @description INVALID_DID_URL, INVALID_DID, INVALID_OPTIONS; INVALID_REQUEST (no Host header, malformed percent-encoding) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description EGRESS_BLOCKED: the DID's host resolves to an address that is not public */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: the document, the fragment, the service or the version does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: a fetched resource is over its size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INVALID_DID_DOCUMENT: the fetched document or log is invalid (id mismatch, not JSON, a did:webvh log that does not verify) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description METHOD_NOT_SUPPORTED, FEATURE_NOT_SUPPORTED (a DID URL path, an unknown DID parameter) */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the DID's host failed or timed out (DNS, TLS, HTTP) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (shutting down) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    fastVerifyDid: {
        parameters: {
            query?: {
                /** @description Bypass and refresh the resolution cache: true (also 1 or empty) or false (also 0). */
                noCache?: "true" | "1" | "" | "false" | "0";
            };
            header?: never;
            path: {
                /** @description The DID, raw or fully percent-encoded. */
                did: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The fast DID verdict */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FastDidVerdict"];
                };
            };
            /** @description INVALID_DID, INVALID_OPTIONS (unknown or repeated query option, bad value); INVALID_REQUEST (no Host header, malformed percent-encoding) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description EGRESS_BLOCKED: the DID's host resolves to an address that is not public */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: the document (or the version asked for) does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: a fetched resource is over its size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INVALID_DID_DOCUMENT: the fetched document or log is invalid (id mismatch, not JSON, a did:webvh log that does not verify) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description METHOD_NOT_SUPPORTED, FEATURE_NOT_SUPPORTED */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the DID's host failed or timed out (DNS, TLS, HTTP) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (shutting down) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    graph: {
        parameters: {
            query?: {
                /** @description Bypass and refresh the resolution cache: true (also 1 or empty) or false (also 0). */
                noCache?: "true" | "1" | "" | "false" | "0";
            };
            header?: never;
            path: {
                /** @description The DID, raw or fully percent-encoded. */
                did: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The graph response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GraphResponse"];
                };
            };
            /** @description INVALID_DID, INVALID_OPTIONS (unknown or repeated query option, bad value); INVALID_REQUEST (no Host header, malformed percent-encoding) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description EGRESS_BLOCKED: the DID's host resolves to an address that is not public */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: the document (or the version asked for) does not exist */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: a fetched resource is over its size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INVALID_DID_DOCUMENT: the fetched document or log is invalid (id mismatch, not JSON, a did:webvh log that does not verify) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description METHOD_NOT_SUPPORTED, FEATURE_NOT_SUPPORTED */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the DID's host failed or timed out (DNS, TLS, HTTP) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (shutting down) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    history: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The DID, raw or fully percent-encoded. */
                did: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The observation history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ObservationHistory"];
                };
            };
            /** @description INVALID_DID, INVALID_OPTIONS (this route takes no query option); INVALID_REQUEST (no Host header, malformed percent-encoding) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the observation store is unavailable (see /ready; Retry-After), or the daemon is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    keptLog: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The DID, raw or fully percent-encoded. */
                did: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The kept log (application/jsonl) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/jsonl": string;
                };
            };
            /** @description INVALID_DID (not a did:webvh), INVALID_OPTIONS (this route takes no query option); INVALID_REQUEST (no Host header, malformed percent-encoding) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no log of this DID is kept */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the store is unavailable (see /ready; Retry-After), or the daemon is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    diff: {
        parameters: {
            query?: {
                /** @description The older document hash (or a unique prefix of 8+ hex digits). */
                from?: string;
                /** @description The newer document hash (or a unique prefix of 8+ hex digits). */
                to?: string;
            };
            header?: never;
            path: {
                /** @description The DID, raw or fully percent-encoded. */
                did: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The semantic diff */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SemanticDiff"];
                };
            };
            /** @description INVALID_DID, INVALID_OPTIONS (unknown option, a hash prefix that is not 8+ hex digits or not unique); INVALID_REQUEST (no Host header, malformed percent-encoding) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: fewer than two observations, or no observed document with that hash */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the observation store is unavailable (see /ready; Retry-After), or the daemon is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    verifyCredential: {
        parameters: {
            query?: {
                /** @description true (also 1 or empty): sign the answer — its svc-signature header carries a detached JWS over the RFC 8785 form of the body. A daemon without a signing key (its operator's SVC_SIGNING_KEY) answers 400 INVALID_OPTIONS, never an unsigned result. */
                signed?: "true" | "1" | "" | "false" | "0";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CredentialVerifyRequest"];
            };
        };
        responses: {
            /** @description The verification, whatever its status. */
            200: {
                headers: {
                    /** @description Only when the request asked signed=true: a compact detached JWS (header..signature, RFC 7515 Appendix F, typ svc-result+jws) over the RFC 8785 form of this body, by the key /health names as signer. Verify it with the clients, or as docs/daemon.md#signed-results says. */
                    "svc-signature"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CredentialVerification"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member, or a member of the wrong shape (a trustedIssuers entry that is not one is named); INVALID_OPTIONS: an unknown or repeated query option, signed=true on a daemon without a signing key, or "jsonld": true on a daemon without SVC_JSONLD=on. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    fastVerifyJws: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JwsVerifyRequest"];
            };
        };
        responses: {
            /** @description The JWS verification, whatever its status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JwsVerification"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member, or a member of the wrong shape. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    evaluatePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PolicyEvaluateRequest"];
            };
        };
        responses: {
            /** @description The evaluation, the credential verification (or null) and the resolution verdict and dimensions (or null). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyDecision"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member, or a member of the wrong shape; INVALID_DID: "did" is not a DID. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    verifyPresentation: {
        parameters: {
            query?: {
                /** @description true (also 1 or empty): sign the answer — its svc-signature header carries a detached JWS over the RFC 8785 form of the body. A daemon without a signing key (its operator's SVC_SIGNING_KEY) answers 400 INVALID_OPTIONS, never an unsigned result. */
                signed?: "true" | "1" | "" | "false" | "0";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PresentationVerifyRequest"];
            };
        };
        responses: {
            /** @description The verification, whatever its status. */
            200: {
                headers: {
                    /** @description Only when the request asked signed=true: a compact detached JWS (header..signature, RFC 7515 Appendix F, typ svc-result+jws) over the RFC 8785 form of this body, by the key /health names as signer. Verify it with the clients, or as docs/daemon.md#signed-results says. */
                    "svc-signature"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PresentationVerification"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member, lacks "presentation", or has a member of the wrong shape (a trustedIssuers entry that is not one is named); INVALID_OPTIONS: an unknown or repeated query option, or signed=true on a daemon without a signing key. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    verifyCredentialVcApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VcApiVerifyCredentialRequest"];
            };
        };
        responses: {
            /** @description Verified: svc verified the credential as VALID. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VcApiVerificationResult"];
                };
            };
            /** @description application/json: the credential did not verify (verified false, the reasons in errors), or an EnvelopedVerifiableCredential could not be read. application/problem+json: INVALID_REQUEST (the body is not a JSON object, has a duplicate or unknown member, verifiableCredential is missing or not an object, options is not an object) or INVALID_OPTIONS (a check svc does not run, challenge or domain). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VcApiVerificationResult"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    verifyPresentationVcApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VcApiVerifyPresentationRequest"];
            };
        };
        responses: {
            /** @description Verified: svc verified the presentation and its credentials as VALID. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VcApiVerificationResult"];
                };
            };
            /** @description application/json: the presentation did not verify (verified false, the reasons in errors), or an EnvelopedVerifiablePresentation could not be read. application/problem+json: INVALID_REQUEST (the body is not a JSON object, has a duplicate or unknown member, verifiablePresentation is missing or not an object, options is not an object, challenge or domain not a non-empty string) or INVALID_OPTIONS (a check svc does not run). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VcApiVerificationResult"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    verifyDelegation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifyDelegationRequest"];
            };
        };
        responses: {
            /** @description The chain result and whether it was registered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DelegationVerification"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member, or a member of the wrong shape; INVALID_DID: an entry of trustedRoots is not a DID. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit (read it as DENY). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced (read it as DENY). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    authorize: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AuthorizeRequest"];
            };
        };
        responses: {
            /** @description The authorization and the chain result it was decided on. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthorizeResponse"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member, or a member of the wrong shape; INVALID_DID: an entry of trustedRoots is not a DID. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit (read it as DENY). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced (read it as DENY). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    verifyTool: {
        parameters: {
            query: {
                /** @description The DID of the agent (a fragment is ignored). */
                agent: string;
                /** @description The name of the tool. */
                tool: string;
                /** @description Require this delegation root (a DID). */
                root?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The authorization (ALLOW or DENY). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Authorization"];
                };
            };
            /** @description INVALID_OPTIONS: agent or tool missing, empty or too long, an unknown or repeated query option; INVALID_DID: agent or root is not a DID. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit (read it as DENY). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced (read it as DENY). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    inspectMcp: {
        parameters: {
            query: {
                /** @description The URL of the MCP endpoint, e.g. https://tools.example/mcp. */
                endpoint: string;
                /** @description true (also 1 or empty): sign the answer — its svc-signature header carries a detached JWS over the RFC 8785 form of the body. A daemon without a signing key (its operator's SVC_SIGNING_KEY) answers 400 INVALID_OPTIONS, never an unsigned result. */
                signed?: "true" | "1" | "" | "false" | "0";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The MCP inspection. */
            200: {
                headers: {
                    /** @description Only when the request asked signed=true: a compact detached JWS (header..signature, RFC 7515 Appendix F, typ svc-result+jws) over the RFC 8785 form of this body, by the key /health names as signer. Verify it with the clients, or as docs/daemon.md#signed-results says. */
                    "svc-signature"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpInspection"];
                };
            };
            /** @description INVALID_OPTIONS: the query option is missing, too long, repeated or unknown, or signed=true on a daemon without a signing key; INVALID_REQUEST: the endpoint is not an absolute https URL. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description EGRESS_BLOCKED: the host resolves to a non-public address, or a redirect left https. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no MCP endpoint at the URL (answered 404). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: a fetched resource is over its size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the host failed or timed out (DNS, TLS, a reset, time limit, a 5xx), or did not answer as an MCP server (an HTML page, a JSON API that is not JSON-RPC, an event stream without the answer); the detail names what was found. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    inspectMcpWithBaseline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["McpInspectBaselineRequest"];
            };
        };
        responses: {
            /** @description The MCP inspection, its drift against the baseline. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpInspection"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member; the endpoint is not an absolute https URL; or the baseline cannot be used (malformed, another format, from a newer svc, another hash profile, a fingerprint that is not its definition's, no entry approved from this endpoint): the detail says which. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description EGRESS_BLOCKED: the host resolves to a non-public address, or a redirect left https. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no MCP endpoint at the URL (answered 404). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the host failed or timed out, or did not answer as an MCP server; the detail names what was found. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    inspectA2a: {
        parameters: {
            query: {
                /** @description The agent origin or the URL of its agent card, e.g. https://agent.example. */
                url: string;
                /** @description true (also 1 or empty): sign the answer — its svc-signature header carries a detached JWS over the RFC 8785 form of the body. A daemon without a signing key (its operator's SVC_SIGNING_KEY) answers 400 INVALID_OPTIONS, never an unsigned result. */
                signed?: "true" | "1" | "" | "false" | "0";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The A2A inspection. */
            200: {
                headers: {
                    /** @description Only when the request asked signed=true: a compact detached JWS (header..signature, RFC 7515 Appendix F, typ svc-result+jws) over the RFC 8785 form of this body, by the key /health names as signer. Verify it with the clients, or as docs/daemon.md#signed-results says. */
                    "svc-signature"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["A2aInspection"];
                };
            };
            /** @description INVALID_OPTIONS: the query option is missing, too long, repeated or unknown, or signed=true on a daemon without a signing key; INVALID_REQUEST: the URL is not an absolute URL. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description EGRESS_BLOCKED: the host resolves to a non-public address, or a redirect left https. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no agent card at the URL. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: a fetched resource is over its size limit. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INVALID_DID_DOCUMENT: the fetched resource is no agent card (not JSON, or not an object). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the host failed or timed out (DNS, TLS, time limit, an HTTP error). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    inspectA2aWithBaseline: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["A2aInspectBaselineRequest"];
            };
        };
        responses: {
            /** @description The A2A inspection, compared with the baseline. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["A2aInspection"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a JSON object, has a duplicate or unknown member; the URL is not an absolute URL; or the baseline cannot be used (malformed, another format, from a newer svc, no entry approved from the card URL): the detail says which. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description EGRESS_BLOCKED: the host resolves to a non-public address, or a redirect left https. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no agent card at the URL. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INVALID_DID_DOCUMENT: the fetched resource is no agent card (not JSON, or not an object). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the host failed or timed out (DNS, TLS, time limit, an HTTP error). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After) or SERVICE_UNAVAILABLE (shutting down). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    resolveW3c: {
        parameters: {
            query?: {
                /** @description Bypass and refresh the resolution cache: true (also 1 or empty) or false (also 0). */
                noCache?: "true" | "1" | "" | "false" | "0";
                /** @description did:webvh: the version with this versionId. */
                versionId?: string;
                /** @description did:webvh: the version in force at this RFC 3339 time. */
                versionTime?: string;
                /** @description did:webvh: the version with this number (a positive integer). */
                versionNumber?: string;
            };
            header?: never;
            path: {
                /** @description The DID, raw or fully percent-encoded. */
                did: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The DID document, the resolution result, or the dereferencing result of a DID URL */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did": components["schemas"]["DidDocument"];
                    "application/did-resolution": components["schemas"]["W3cResolutionResult"];
                    "application/json": components["schemas"]["DereferencingResult"];
                    "application/did-url-dereferencing": components["schemas"]["DereferencingResult"];
                };
            };
            /** @description A service endpoint (contentType text/uri-list) asked for as application/did-url-dereferencing or text/uri-list: Location is the (first) endpoint URL; the body is empty */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_DID, INVALID_DID_URL, INVALID_OPTIONS (embedded); INVALID_REQUEST (problem+json: no Host header, malformed percent-encoding) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cErrorResolutionResult"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND (embedded) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cErrorResolutionResult"];
                };
            };
            /** @description REPRESENTATION_NOT_SUPPORTED: nothing acceptable can be sent */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The DID is deactivated: the full result, didDocumentMetadata.deactivated true */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cResolutionResult"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: a fetched resource is over its size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED (embedded; Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cErrorResolutionResult"];
                };
            };
            /** @description INVALID_DID_DOCUMENT, EGRESS_BLOCKED, UPSTREAM_UNAVAILABLE, INTERNAL_ERROR (embedded) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cErrorResolutionResult"];
                };
            };
            /** @description METHOD_NOT_SUPPORTED, FEATURE_NOT_SUPPORTED (embedded) */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cErrorResolutionResult"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (embedded) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cErrorResolutionResult"];
                };
            };
        };
    };
    resolveW3cPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The DID, raw or fully percent-encoded. */
                did: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    noCache?: string | boolean | number;
                    versionId?: string | boolean | number;
                    versionTime?: string | boolean | number;
                    versionNumber?: string | boolean | number;
                    /** @description The media types asked for, in place of the Accept header (when a string). */
                    accept?: unknown;
                };
            };
        };
        responses: {
            /** @description The DID document, the resolution result, or the dereferencing result of a DID URL */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did": components["schemas"]["DidDocument"];
                    "application/did-resolution": components["schemas"]["W3cResolutionResult"];
                    "application/json": components["schemas"]["DereferencingResult"];
                    "application/did-url-dereferencing": components["schemas"]["DereferencingResult"];
                };
            };
            /** @description A service endpoint (contentType text/uri-list) asked for as application/did-url-dereferencing or text/uri-list: Location is the (first) endpoint URL; the body is empty */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_DID, INVALID_DID_URL, INVALID_OPTIONS (embedded); INVALID_REQUEST (problem+json: a body that is not acceptable JSON or not application/json, no Host header, malformed percent-encoding) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cErrorResolutionResult"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND (embedded) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cErrorResolutionResult"];
                };
            };
            /** @description REPRESENTATION_NOT_SUPPORTED: nothing acceptable can be sent */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description The DID is deactivated: the full result, didDocumentMetadata.deactivated true */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cResolutionResult"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body, or a fetched resource, is over its size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED (embedded; Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cErrorResolutionResult"];
                };
            };
            /** @description INVALID_DID_DOCUMENT, EGRESS_BLOCKED, UPSTREAM_UNAVAILABLE, INTERNAL_ERROR (embedded) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cErrorResolutionResult"];
                };
            };
            /** @description METHOD_NOT_SUPPORTED, FEATURE_NOT_SUPPORTED (embedded) */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cErrorResolutionResult"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (embedded) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/did-resolution": components["schemas"]["W3cErrorResolutionResult"];
                };
            };
        };
    };
    homePage: {
        parameters: {
            query?: {
                /** @description A DID typed into the search box; answered with a redirect to its dossier. */
                did?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The front page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The dossier of the DID searched for (Location: /d/{did}) */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_OPTIONS (unknown or repeated query option); INVALID_DID (an empty DID); INVALID_REQUEST (no Host header) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description SERVICE_UNAVAILABLE: the daemon is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
        };
    };
    dossierPage: {
        parameters: {
            query?: {
                /** @description Bypass and refresh the resolution cache: true (also 1 or empty) or false (also 0). */
                noCache?: "true" | "1" | "" | "false" | "0";
                /** @description The older observation of the time machine's diff. A document hash of an observation of this DID (as /v1/history lists them), or a unique prefix of at least 8 hex characters. */
                from?: string;
                /** @description The newer observation of the time machine's diff. A document hash of an observation of this DID (as /v1/history lists them), or a unique prefix of at least 8 hex characters. */
                to?: string;
            };
            header?: never;
            path: {
                /** @description The DID, raw or fully percent-encoded. */
                did: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dossier (text/html), or the enriched resolution (application/json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["EnrichedResolution"];
                };
            };
            /** @description INVALID_DID, INVALID_OPTIONS; INVALID_REQUEST (no Host header, malformed percent-encoding) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description EGRESS_BLOCKED: the DID's host resolves to an address that is not public */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description NOT_FOUND: the document does not exist, or an observation asked for (from, to) was never made */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description REPRESENTATION_NOT_SUPPORTED: Accept names neither text/html nor application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description The DID is deactivated: its dossier, or the full result */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["EnrichedResolution"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: a fetched resource is over its size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description INVALID_DID_DOCUMENT: the fetched document or log is invalid */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description METHOD_NOT_SUPPORTED, FEATURE_NOT_SUPPORTED */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the DID's host failed or timed out (DNS, TLS, HTTP) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (shutting down) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
        };
    };
    mcpInspectionPage: {
        parameters: {
            query?: {
                /** @description The URL of the MCP endpoint, e.g. https://tools.example/mcp. */
                endpoint?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The form (text/html, without endpoint), the inspection (text/html), or the McpInspection (application/json) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                    "application/json": components["schemas"]["McpInspection"];
                };
            };
            /** @description INVALID_OPTIONS: the endpoint is empty, too long or repeated, an unknown option, or no endpoint with Accept: application/json; INVALID_REQUEST: the endpoint is not an absolute URL, or no Host header */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description EGRESS_BLOCKED: the host resolves to a non-public address, or a redirect left https */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description NOT_FOUND: no MCP endpoint at the URL (answered 404) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description REPRESENTATION_NOT_SUPPORTED: Accept names neither text/html nor application/json */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description PAYLOAD_TOO_LARGE: a fetched resource is over its size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description RATE_LIMITED: the client's intensive budget is used up (Retry-After) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description INTERNAL_ERROR */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the host failed or timed out, or did not answer as an MCP server (an HTML page, a JSON API that is not JSON-RPC …); the detail names what was found */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After), SERVICE_UNAVAILABLE (shutting down) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
        };
    };
    webAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description e.g. dossier.3f9c0e1a2b4d5c6e.css or favicon.0a1b2c3d4e5f6a7b.svg, as the pages link it. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/css": string;
                    "text/javascript": string;
                    "image/svg+xml": string;
                };
            };
            /** @description Not modified (If-None-Match matched) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_OPTIONS: a query option was given (this route takes none) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description NOT_FOUND: no asset of that name (an older build’s name, or a typo) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            /** @description SERVICE_UNAVAILABLE: the daemon is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
        };
    };
    createClaimChallenge: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClaimChallengeRequest"];
            };
        };
        responses: {
            /** @description The challenge: what to sign or publish, and until when. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClaimChallenge"];
                };
            };
            /** @description INVALID_DID: did is not a DID; INVALID_REQUEST: the body is not valid (the member is named), or the method does not apply to the DID (well-known and dns need a host). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up, or its share of pending challenges (20 by default), or the DID's share (10 by default) while this client holds one of the DID's challenges (Retry-After: until one of them expires). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description METHOD_NOT_SUPPORTED: the DID names a method svc does not resolve. */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED: 10000 challenges are pending, or the service is busy (Retry-After); SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    verifyClaim: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClaimProofRequest"];
            };
        };
        responses: {
            /** @description What the check found: the claim, or why not. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClaimVerification"];
                };
            };
            /** @description INVALID_DID: did is not a DID; INVALID_REQUEST: the body is not valid (the member is named), or the method does not apply to the DID (well-known and dns need a host). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: the body is larger than the body limit (512 KiB). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description METHOD_NOT_SUPPORTED: the DID names a method svc does not resolve. */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED (Retry-After); SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listClaims: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The DID, raw or fully percent-encoded. */
                did: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The DID's claims. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClaimList"];
                };
            };
            /** @description INVALID_DID; INVALID_OPTIONS (this route takes no query option); INVALID_REQUEST (no Host header, malformed percent-encoding). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable (see /ready; Retry-After), or the daemon is shutting down. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listDirectory: {
        parameters: {
            query?: {
                /** @description Free text (at most 100 characters): entries whose DID contains it, case-insensitively. */
                q?: string;
                /** @description The DID method. */
                method?: "web" | "key" | "jwk" | "webvh";
                /** @description Entries per page, 1 to 50 (default 20). */
                limit?: string;
                /** @description The nextCursor of the previous page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the directory. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DirectoryPage"];
                };
            };
            /** @description INVALID_OPTIONS: an unknown or repeated query option, q over 100 characters, limit outside 1..50, a method other than web, key, jwk, webvh, or a cursor of another query. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: Authorization: Bearer svck_… names a project key that is unknown, revoked, rotated or malformed (commercial mode only; any other Authorization is ignored). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description REQUEST_TIMEOUT: the request ran past its time limit. */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: no answer could be produced. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable (see /ready; Retry-After), or the daemon is shutting down. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listWatches: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The active watches. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchList"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the watches could not be read. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITORING_DISABLED: operator monitoring is not enabled on this daemon (direct profile and SVC_ADMIN_TOKEN of 24+ characters). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createWatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WatchRequest"];
            };
        };
        responses: {
            /** @description The watch, its signing secret (shown once) and a note. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchCreated"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a WatchRequest, names none or several of did, mcpEndpoint and a2aCard, or its baseline does not parse or holds no entry approved from the subject (the detail says which); INVALID_DID: did is not a DID. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description EGRESS_BLOCKED: the webhook URL, the MCP endpoint or the card URL is not https or its host resolves to a non-public address. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up; WATCH_CAPACITY_EXHAUSTED: 500 watches are stored (delete one first). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITORING_DISABLED, or METHOD_NOT_SUPPORTED: did names a method svc does not resolve. */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the webhook host does not resolve. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no active watch has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the watch could not be removed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITORING_DISABLED: operator monitoring is not enabled on this daemon (direct profile and SVC_ADMIN_TOKEN of 24+ characters). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    checkWatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Nothing: the check takes no options (an empty object, or no body). */
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description What the check found. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchCheck"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no active watch has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: 10000 events are stored, or an event would be over 262144 bytes: nothing was written (the change is reported once there is room). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITORING_DISABLED: operator monitoring is not enabled on this daemon (direct profile and SVC_ADMIN_TOKEN of 24+ characters). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CAPACITY_EXHAUSTED, or SERVICE_UNAVAILABLE: the database is unavailable, another check of the watch was recorded at the same moment, or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    enableWatchWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Nothing (the registered URL again), or {webhookUrl}. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description A new webhook URL in place of the old one (egress-checked as at registration); absent: the registered URL again. */
                    webhookUrl?: string;
                };
            };
        };
        responses: {
            /** @description The watch, its webhook enabled. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchWebhook"];
                };
            };
            /** @description INVALID_REQUEST: the body is not {webhookUrl?}; INVALID_OPTIONS: a query option (none is taken). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description EGRESS_BLOCKED: the new webhook URL is not https or its host resolves to a non-public address. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no active watch has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the watch could not be updated. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITORING_DISABLED: operator monitoring is not enabled on this daemon (direct profile and SVC_ADMIN_TOKEN of 24+ characters). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the new webhook host does not resolve. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listEventAttempts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attempts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryAttemptList"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no operator event has this id (evt_<n>). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the attempts could not be read. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITORING_DISABLED: operator monitoring is not enabled on this daemon (direct profile and SVC_ADMIN_TOKEN of 24+ characters). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listMonitorEvents: {
        parameters: {
            query?: {
                watchId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorEventList"];
                };
            };
            /** @description INVALID_OPTIONS: an unknown or repeated option, or a watchId that is not a number (or beyond 2^53 − 1). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the events could not be read. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITORING_DISABLED: operator monitoring is not enabled on this daemon (direct profile and SVC_ADMIN_TOKEN of 24+ characters). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replayMonitorEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Nothing: a replay takes no options (an empty object, or no body). */
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The event, queued for delivery again. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitorEventReplay"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no event of an operator watch has this id (evt_<n>). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CONFLICT: the event is not DEAD_LETTER or CANCELLED (still being delivered, or delivered), its watch was removed, or the watch's webhook is disabled (re-enable it first). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the event could not be replayed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITORING_DISABLED: operator monitoring is not enabled on this daemon (direct profile and SVC_ADMIN_TOKEN of 24+ characters). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    replayWatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Replay the watch's DEAD_LETTER events created at or after this instant: an RFC 3339 date-time with seconds and an offset (2026-01-01T00:00:00Z, 2026-01-01T02:00:00+02:00), from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z; a fraction rounds up to the next second. */
                    since: string;
                };
            };
        };
        responses: {
            /** @description The replayed events. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchReplay"];
                };
            };
            /** @description INVALID_REQUEST: the body is not {since}, or since is not an RFC 3339 date-time with seconds and an offset from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no active watch has this id. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CONFLICT: the watch's webhook is disabled (re-enable it first). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the events could not be replayed. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITORING_DISABLED: operator monitoring is not enabled on this daemon (direct profile and SVC_ADMIN_TOKEN of 24+ characters). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    monitoringStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The gauges. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MonitoringStatus"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the gauges could not be read. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITORING_DISABLED: operator monitoring is not enabled on this daemon (direct profile and SVC_ADMIN_TOKEN of 24+ characters). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    monitoringRetentionPreview: {
        parameters: {
            query: {
                /** @description The cutoff: an RFC 3339 date-time with seconds and an offset (2026-01-01T00:00:00Z, 2026-01-01T02:00:00+02:00, 2026-01-01T00:00:00.5Z), from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z. */
                before: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The candidate counts at the cutoff. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetentionPreview"];
                };
            };
            /** @description INVALID_OPTIONS: before is missing, repeated or not an RFC 3339 date-time with seconds and an offset from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z; or an unknown option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the tables could not be read. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITORING_DISABLED: operator monitoring is not enabled on this daemon (direct profile and SVC_ADMIN_TOKEN of 24+ characters). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listTenants: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenants. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantList"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the accounts could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createTenant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TenantRequest"];
            };
        };
        responses: {
            /** @description The tenant. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantCreated"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a TenantRequest (name 1..100 characters, owner a DID); INVALID_DID: owner is not a DID; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the accounts could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectRequest"];
            };
        };
        responses: {
            /** @description The project. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectCreated"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a ProjectRequest (name 1..100 characters), or the tenant already has a project of that name; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no tenant has this id; or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the accounts could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    attachOwner: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OwnerRequest"];
            };
        };
        responses: {
            /** @description The tenant's owners. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantOwners"];
                };
            };
            /** @description INVALID_REQUEST: the body is not an OwnerRequest; INVALID_DID: subject is not a DID; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no tenant has this id; or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the accounts could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    removeOwner: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                subject: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Detached. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_OPTIONS: a query option; INVALID_REQUEST: no Host header. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no tenant has this id, or the subject is not one of its owners; or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the accounts could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    projectUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The counters. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectUsage"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project has this id; or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the accounts could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plans. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanList"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the accounts could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    savePlan: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanRequest"];
            };
        };
        responses: {
            /** @description The plan. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanSaved"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a PlanRequest; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the accounts could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    subscribeTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionRequest"];
            };
        };
        responses: {
            /** @description The subscription. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionSaved"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no tenant has this id, or no active plan that one; or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the accounts could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    closePeriod: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PeriodRequest"];
            };
        };
        responses: {
            /** @description The invoice and its ledger entries. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PeriodClosed"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a PeriodRequest, or that month is closed already; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no tenant has this id, or it has no subscription; or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the accounts could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    tenantBilling: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The billing record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantBilling"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: no Authorization: Bearer header with the operator token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no tenant has this id; or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the accounts could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionListKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id (one that does not exist and one of another owner look the same); or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the keys could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionIssueKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeyRequest"];
            };
        };
        responses: {
            /** @description The key and its secret (shown once). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyIssued"];
                };
            };
            /** @description INVALID_REQUEST: the body is not a KeyRequest (label of 1 to 100 characters, nothing else); INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id (one that does not exist and one of another owner look the same); or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description KEY_CAPACITY_EXHAUSTED: the project has 10 active keys, or retains 100 keys of any status (a fixed cap: no Retry-After; revoke keys first — retained ones count until the operator removes them). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the keys could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionRevokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_OPTIONS: a query option (none is taken); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id, or the project has no key of this id; or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the keys could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionRotateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
                key: string;
            };
            cookie?: never;
        };
        /** @description Nothing: an empty object. */
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The new key, its secret (shown once) and the replaced key. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyRotated"];
                };
            };
            /** @description INVALID_REQUEST: the body is not an empty object; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id, or the project has no ACTIVE key of this id; or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description KEY_CAPACITY_EXHAUSTED: the project has 10 active keys, or retains 100 keys of any status (a fixed cap: no Retry-After; revoke keys first — retained ones count until the operator removes them). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the keys could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    listOwnerProjects: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The owner and the projects. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        subject: string;
                        projects: {
                            id: string;
                            tenantId: string;
                            name: string;
                            /** Format: date-time */
                            createdAt: string;
                        }[];
                    };
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: not through the cookie gateway (no verified-session bridge), or no live session there. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon. */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionListWatches: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The watches. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectWatchList"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken: cursors go in POST bodies); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id (one that does not exist and one of another owner look the same); or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionCreateWatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProjectWatchRequest"];
            };
        };
        responses: {
            /** @description The project already watches this DID: its watch. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectWatchCreated"];
                };
            };
            /** @description The new watch. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectWatchCreated"];
                };
            };
            /** @description INVALID_REQUEST: the body names none or several of did, mcpEndpoint and a2aCard, did names a method projects cannot watch (did:webvh), or the baseline does not parse or holds no entry approved from the subject; INVALID_DID: did is not a DID; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description EGRESS_BLOCKED: the MCP endpoint or card URL is not https or its host resolves to a non-public address. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id (one that does not exist and one of another owner look the same); or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up; WATCH_CAPACITY_EXHAUSTED: the project has 100 active watches (remove one first). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN).; METHOD_NOT_SUPPORTED: did names a method svc does not resolve. */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionDeleteWatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
                watch: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_OPTIONS: a query option (none is taken: cursors go in POST bodies); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id, or the project has no watch of this id (another project's watch looks the same); or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionListEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
                watch: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerEventList"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken: cursors go in POST bodies); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id, or the project has no watch of this id (another project's watch looks the same); or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITOR_REPORT_CAPACITY: more than 200 events in the window; use event-page. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionEventPage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
                watch: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EventPageRequest"];
            };
        };
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                };
            };
            /** @description INVALID_REQUEST: the body is not an EventPageRequest (limit 1..100; nothing else), an event id is malformed, or beforeEventId comes without snapshotEventId; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id, or the project has no watch of this id (another project's watch looks the same); or snapshotEventId / beforeEventId is not an event of this watch; or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionWatchReport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
                watch: string;
            };
            cookie?: never;
        };
        /** @description Nothing: an empty object. */
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchReport"];
                };
            };
            /** @description INVALID_REQUEST: the body is not an empty object; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id, or the project has no watch of this id (another project's watch looks the same); or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description MONITOR_REPORT_CAPACITY: more than 1000 events, or more than 8 MiB. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionGetWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerWebhookState"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken: cursors go in POST bodies); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id (one that does not exist and one of another owner look the same); or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionSetWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerWebhookRequest"];
            };
        };
        responses: {
            /** @description The configuration and its secret (shown once). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerWebhookCreated"];
                };
            };
            /** @description INVALID_REQUEST: the body is not {url}; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description EGRESS_BLOCKED: the URL is not https or its host resolves to a non-public address. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id (one that does not exist and one of another owner look the same); or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UPSTREAM_UNAVAILABLE: the webhook host does not resolve. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionDeleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Disabled (or none was set). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description INVALID_OPTIONS: a query option (none is taken: cursors go in POST bodies); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id (one that does not exist and one of another owner look the same); or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionListDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerDeliveryList"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken: cursors go in POST bodies); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id (one that does not exist and one of another owner look the same); or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionReplayDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
                delivery: string;
            };
            cookie?: never;
        };
        /** @description Nothing: an empty object. */
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The delivery, queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerDeliveryReplay"];
                };
            };
            /** @description INVALID_REQUEST: the body is not an empty object; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id, or the project has no delivery of this id; or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CONFLICT: the delivery is not DEAD_LETTER or CANCELLED, its watch was removed, the project has no active webhook, or the active webhook's delivery of the event is still on its way. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionReplayWatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                project: string;
                watch: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Replay the dead letters of the watch's events created at or after this instant: an RFC 3339 date-time with seconds and an offset (2026-01-01T00:00:00Z), from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z; a fraction rounds up to the next second. */
                    since: string;
                };
            };
        };
        responses: {
            /** @description The deliveries queued again. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerWatchReplay"];
                };
            };
            /** @description INVALID_REQUEST: the body is not {since}, or since is not an RFC 3339 date-time with seconds and an offset from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z; INVALID_OPTIONS: a query option. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: no project of the owner has this id, or the project has no watch of this id (another project's watch looks the same); or on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description CONFLICT: the project has no active webhook to replay to (set one first). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    sessionScheduledUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduledUsageList"];
                };
            };
            /** @description INVALID_OPTIONS: a query option (none is taken: cursors go in POST bodies); INVALID_REQUEST: no Host header, or a body that is not JSON. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description UNAUTHORIZED: the request did not come through the cookie gateway (no bridge secret), or the gateway named no subject. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description NOT_FOUND: on the public profile (svc serve --public) the route is not mounted. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description RATE_LIMITED: the client's budget is used up (Retry-After). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description INTERNAL_ERROR: the monitor could not be read or written. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description COMMERCIAL_DISABLED: the commercial mode is not enabled on this daemon (direct profile, SVC_ADMIN_TOKEN, SVC_COMMERCIAL=on, SVC_COMMERCIAL_ORIGIN). */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the database is unavailable or the daemon is shutting down (Retry-After). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    openApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document (the same bytes as openapi.json in the repository) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        openapi: "3.1.0";
                        info: Record<string, never>;
                        paths: Record<string, never>;
                    };
                };
            };
            /** @description INVALID_OPTIONS: a query option was given (this route takes none); INVALID_REQUEST: no Host header, or malformed percent-encoding */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: the daemon is shutting down */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
}
