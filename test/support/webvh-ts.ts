/**
 * did:webvh v1.0 logs made by an independent implementation, didwebvh-ts 2.8.0 (devDependency),
 * and that implementation's own answers, for the oracle test and the benchmark. Everything is
 * deterministic: keys come from labels (SHA-256 of the label is the Ed25519 seed), timestamps are
 * passed explicitly, and Ed25519 signatures are deterministic, so the same calls give the same
 * bytes on every run.
 *
 *   const key = new TestSigner('controller');
 *   const { did, log } = await createLog({ signer: key, created: versionTime(0) });
 *   const next = await updateLog(log, { signer: key, updated: versionTime(1), services: [...] });
 *   const answer = await oracleResolve(next.log, { versionNumber: 1 });
 *
 * didwebvh-ts quirks handled here (see also the oracle test):
 *  - Under NODE_ENV=test (vitest sets it) the library writes every log it creates or resolves to
 *    `./test/logs/<did>.jsonl` in the working directory. It reads NODE_ENV once, when it is
 *    first loaded, so it is loaded below with NODE_ENV unset for the moment.
 *  - It fetches `did-witness.json` with the global `fetch` whenever a witnessed log is resolved
 *    without `witnessProofs`, and `deactivateDID` cannot be given any. Every call below runs with
 *    `fetch` replaced by a stub that throws, so nothing here ever reaches the network.
 *  - `deactivateDID` takes no timestamp: it stamps the entry with the wall clock. deactivateLog
 *    runs it with `Date` pinned to the requested instant instead.
 *  - `updateDID` writes `witness: {}` (witnessing off) unless `witness` is passed again, and needs
 *    `witnessProofs` approving the current log when witnessing is on.
 *  - `updateDID` re-resolves the whole log on every call (O(n²) to build n entries);
 *    appendEntryFast writes the same entry without that, for long logs.
 *  - Its published type declarations do not resolve under NodeNext (see below); the API used
 *    here is typed by hand.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { multikey } from './codec.js';

// ---------------------------------------------------------------------------------------------
// The part of didwebvh-ts used here, typed by hand (mirrors its dist/types/interfaces.d.ts). The
// package's own declarations re-export './interfaces', './method' … without file extensions,
// which TypeScript's NodeNext resolution (this project's) does not follow in an ESM package:
// imported from 'didwebvh-ts', every type and most functions come out missing.
// ---------------------------------------------------------------------------------------------

export interface DataIntegrityProof {
  id?: string;
  type: 'DataIntegrityProof';
  cryptosuite: 'eddsa-jcs-2022';
  verificationMethod: string;
  created: string;
  proofPurpose: string;
  proofValue: string;
}
export type ProofTemplate = Omit<DataIntegrityProof, 'id' | 'proofValue'>;

export interface ServiceEndpoint {
  id?: string;
  type: string | string[];
  serviceEndpoint?: unknown;
  [member: string]: unknown;
}

export interface DIDDoc {
  id?: string;
  service?: ServiceEndpoint[];
  [member: string]: unknown;
}

export interface DIDLogEntry {
  versionId: string;
  versionTime: string;
  parameters: Record<string, unknown>;
  state: DIDDoc;
  proof?: DataIntegrityProof[];
}
export type DIDLog = DIDLogEntry[];

export interface WitnessParameter {
  threshold?: number | string;
  witnesses?: Array<{ id: string }>;
}

/** didwebvh-ts's metadata: no versionTime, versionNumber or ttl; `error` 'notFound' | 'invalidDid'. */
export interface DIDResolutionMeta {
  versionId: string;
  created: string;
  updated: string;
  deactivated: boolean;
  portable: boolean;
  scid: string;
  updateKeys: string[];
  nextKeyHashes: string[];
  prerotation: boolean;
  witness?: WitnessParameter;
  watchers?: string[] | null;
  previousLogEntryHash?: string;
  error?: string;
  problemDetails?: { type: string; title: string; detail: string };
}

export interface WitnessProofFileEntry {
  versionId: string;
  proof: DataIntegrityProof[];
}

export interface Verifier {
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Promise<boolean>;
}

export interface Signer {
  sign(input: SigningInput): Promise<SigningOutput>;
  getVerificationMethodId(): string;
}
export interface SigningInput {
  document: unknown;
  proof: ProofTemplate;
}
export interface SigningOutput {
  proofValue: string;
}

interface VerificationMethodInput {
  id?: string;
  type: string;
  controller?: string;
  publicKeyMultibase?: string;
  purpose?: string;
}

interface LibraryResult {
  did: string;
  doc: DIDDoc;
  meta: DIDResolutionMeta;
  log: DIDLog;
}

interface DidwebvhTs {
  AbstractCrypto: abstract new (options: { verificationMethod?: VerificationMethodInput | null; useStaticId?: boolean }) => Signer & Verifier;
  prepareDataForSigning(document: unknown, proof: ProofTemplate): Promise<Uint8Array>;
  multibaseEncode(bytes: Uint8Array, encoding: 'z' | 'u'): string;
  deriveNextKeyHash(multikey: string): Promise<string>;
  createDID(options: {
    domain: string;
    paths?: string[];
    signer: Signer;
    verifier: Verifier;
    updateKeys: string[];
    verificationMethods: VerificationMethodInput[];
    created: string;
    /** The specification version: 'did:webvh:0.5' selects the library's v0.5 implementation (default v1.0). */
    method?: string;
    nextKeyHashes?: string[];
    witness?: WitnessParameter | null;
    services?: ServiceEndpoint[];
    alsoKnownAs?: string[];
  }): Promise<LibraryResult>;
  updateDID(options: {
    log: DIDLog;
    signer: Signer;
    verifier: Verifier;
    updated: string;
    witnessProofs: WitnessProofFileEntry[];
    updateKeys?: string[];
    verificationMethods?: VerificationMethodInput[];
    nextKeyHashes?: string[];
    witness?: WitnessParameter | null;
    services?: ServiceEndpoint[];
    alsoKnownAs?: string[];
  }): Promise<LibraryResult>;
  deactivateDID(options: { log: DIDLog; signer: Signer; verifier: Verifier; updateKeys?: string[] }): Promise<LibraryResult>;
  resolveDIDFromLog(
    log: DIDLog,
    options: { verifier: Verifier; witnessProofs: WitnessProofFileEntry[]; versionNumber?: number; versionId?: string; versionTime?: Date },
  ): Promise<{ did: string; doc: DIDDoc | null; meta: DIDResolutionMeta }>;
  signWitnessProofEntry(options: {
    versionId: string;
    witnesses: Array<{ id: string }>;
    witnessSignersByDid: Record<string, Signer>;
    created?: string;
  }): Promise<WitnessProofFileEntry>;
}

const webvh = await loadWithoutTestLogs();

async function loadWithoutTestLogs(): Promise<DidwebvhTs> {
  const saved = process.env['NODE_ENV'];
  delete process.env['NODE_ENV'];
  try {
    return (await import('didwebvh-ts')) as unknown as DidwebvhTs;
  } finally {
    if (saved !== undefined) process.env['NODE_ENV'] = saved;
  }
}

// ---------------------------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------------------------

/** Time of the first entry of every generated log. */
export const T0 = '2024-01-01T00:00:00Z';
const DAY_MS = 86_400_000;

/** `ms` after `iso`, in didwebvh-ts's format (UTC, whole seconds, `Z`). */
export function addMs(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** versionTime of entry `index` (0-based): T0 plus `index` days. */
export function versionTime(index: number): string {
  return addMs(T0, index * DAY_MS);
}

export const ONE_DAY_MS = DAY_MS;

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Ed25519 with node:crypto (the primitive svc itself uses), for didwebvh-ts's `Verifier` seam. */
const publicKeys = new Map<string, KeyObject>();
export const oracleVerifier: Verifier = {
  async verify(signature, message, publicKey) {
    try {
      const hex = Buffer.from(publicKey).toString('hex');
      let key = publicKeys.get(hex);
      if (!key) {
        key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: 'der', type: 'spki' });
        publicKeys.set(hex, key);
      }
      return verify(null, message, key, signature);
    } catch {
      return false;
    }
  },
};

function seedOf(label: string): Buffer {
  return createHash('sha256').update(`svc did:webvh test key: ${label}`).digest();
}

/**
 * A deterministic Ed25519 key (seed = SHA-256 of the label) that signs for didwebvh-ts: the
 * library hands `sign` the document and the proof configuration; the signature is over
 * `prepareDataForSigning` (SHA-256(JCS(proof config)) ‖ SHA-256(JCS(document)), eddsa-jcs-2022).
 * Its verification method is `did:key:<mb>#<mb>`, as did:webvh requires for update keys and
 * witnesses.
 */
export class TestSigner extends webvh.AbstractCrypto {
  readonly label: string;
  /** Multikey (`z6Mk…`) of the public key. */
  readonly multikey: string;
  /** `did:key:<multikey>`: the witness id of this key. */
  readonly did: string;
  readonly verificationMethodId: string;
  readonly #privateKey: KeyObject;

  constructor(label: string) {
    const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seedOf(label)]), format: 'der', type: 'pkcs8' });
    const raw = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(SPKI_ED25519_PREFIX.length);
    const mb = multikey(0xed, raw);
    super({ verificationMethod: { id: `did:key:${mb}#${mb}`, controller: `did:key:${mb}`, type: 'Multikey', publicKeyMultibase: mb } });
    this.label = label;
    this.multikey = mb;
    this.did = `did:key:${mb}`;
    this.verificationMethodId = `did:key:${mb}#${mb}`;
    this.#privateKey = privateKey;
  }

  override async sign(input: SigningInput): Promise<SigningOutput> {
    const data = await webvh.prepareDataForSigning(input.document, input.proof);
    return { proofValue: webvh.multibaseEncode(sign(null, data, this.#privateKey), 'z') };
  }

  override async verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Promise<boolean> {
    return oracleVerifier.verify(signature, message, publicKey);
  }

  override getVerificationMethodId(): string {
    return this.verificationMethodId;
  }
}

/** Pre-rotation commitment to a key: base58btc(multihash(SHA-256(multikey))). */
export function nextKeyHash(key: TestSigner): Promise<string> {
  return webvh.deriveNextKeyHash(key.multikey);
}

// ---------------------------------------------------------------------------------------------
// Running didwebvh-ts offline
// ---------------------------------------------------------------------------------------------

let offlineDepth = 0;
let realFetch: typeof fetch | undefined;

/** Runs `fn` with the global fetch replaced by a stub that throws (re-entrant). */
async function offline<T>(fn: () => Promise<T>): Promise<T> {
  if (offlineDepth++ === 0) {
    realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: unknown) => {
      throw new Error(`didwebvh-ts tried to fetch ${String(input)}; the test helpers are offline (pass witnessProofs)`);
    }) as typeof fetch;
  }
  try {
    return await fn();
  } finally {
    if (--offlineDepth === 0 && realFetch) globalThis.fetch = realFetch;
  }
}

/** Runs `fn` with `Date` (no-argument constructor and `Date.now`) pinned to `iso`. */
async function atFixedTime<T>(iso: string, fn: () => Promise<T>): Promise<T> {
  const RealDate = globalThis.Date;
  const fixed = RealDate.parse(iso);
  if (Number.isNaN(fixed)) throw new Error(`not a timestamp: ${iso}`);
  class FixedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(fixed);
      else super(...(args as [string | number | Date]));
    }
    static override now(): number {
      return fixed;
    }
  }
  globalThis.Date = FixedDate as DateConstructor;
  try {
    return await fn();
  } finally {
    globalThis.Date = RealDate;
  }
}

// ---------------------------------------------------------------------------------------------
// Logs
// ---------------------------------------------------------------------------------------------

export interface TestWitnessRule {
  threshold: number;
  witnesses: TestSigner[];
}

function witnessParameter(rule: TestWitnessRule | null | undefined): WitnessParameter | null | undefined {
  if (rule === undefined || rule === null) return rule;
  return { threshold: rule.threshold, witnesses: rule.witnesses.map((w) => ({ id: w.did })) };
}

/** Multikey verification methods; didwebvh-ts gives them ids `<did>#<last 8 chars>` and lists them under authentication. */
function verificationMethods(keys: readonly TestSigner[]) {
  return keys.map((k) => ({ type: 'Multikey', publicKeyMultibase: k.multikey }));
}

export interface LogResult {
  did: string;
  log: DIDLog;
  doc: DIDDoc;
  meta: DIDResolutionMeta;
}

export interface CreateLogOptions {
  signer: TestSigner;
  /** Default 'example.com'. */
  domain?: string;
  /** DID path segments (`did:webvh:<scid>:<domain>:a:b` → `https://<domain>/a/b/did.jsonl`). */
  paths?: string[];
  /** versionTime of entry 1; default T0. */
  created?: string;
  /** Default [signer]. */
  updateKeys?: TestSigner[];
  /** Keys published as verification methods; default [signer]. */
  keys?: TestSigner[];
  /** Keys committed to for the next update (pre-rotation). */
  nextKeys?: TestSigner[];
  witness?: TestWitnessRule;
  services?: ServiceEndpoint[];
  alsoKnownAs?: string[];
  /** 'did:webvh:0.5': a log of the previous specification version (didwebvh-ts's v0.5 implementation). */
  method?: string;
}

export async function createLog(options: CreateLogOptions): Promise<LogResult> {
  const { signer } = options;
  const nextKeyHashes = options.nextKeys ? await Promise.all(options.nextKeys.map(nextKeyHash)) : undefined;
  const witness = witnessParameter(options.witness);
  const result = await offline(() =>
    webvh.createDID({
      domain: options.domain ?? 'example.com',
      ...(options.paths ? { paths: options.paths } : {}),
      signer,
      verifier: oracleVerifier,
      updateKeys: (options.updateKeys ?? [signer]).map((k) => k.multikey),
      verificationMethods: verificationMethods(options.keys ?? [signer]),
      created: options.created ?? T0,
      ...(options.method ? { method: options.method } : {}),
      ...(nextKeyHashes ? { nextKeyHashes } : {}),
      ...(witness ? { witness } : {}),
      ...(options.services ? { services: options.services } : {}),
      ...(options.alsoKnownAs ? { alsoKnownAs: options.alsoKnownAs } : {}),
    }),
  );
  return { did: result.did, log: result.log, doc: result.doc, meta: result.meta };
}

export interface UpdateLogOptions {
  /** Signs the entry: an active update key (with pre-rotation: one of the entry's own updateKeys). */
  signer: TestSigner;
  /** versionTime of the new entry (must be after the last one and not in the future). */
  updated: string;
  /** New update keys (required while pre-rotation is active). */
  updateKeys?: TestSigner[];
  /** New verification methods (replace the published ones). */
  keys?: TestSigner[];
  /** Keys committed to for the next update; [] ends pre-rotation. */
  nextKeys?: TestSigner[];
  /** The witness rule after this entry. Omitted, didwebvh-ts writes `witness: {}` (off). */
  witness?: TestWitnessRule | null;
  /** Approvals of the current log, needed when witnessing is on (updateDID re-resolves the log). */
  witnessProofs?: WitnessProofFileEntry[];
  services?: ServiceEndpoint[];
  alsoKnownAs?: string[];
}

export async function updateLog(log: DIDLog, options: UpdateLogOptions): Promise<LogResult> {
  const nextKeyHashes = options.nextKeys ? await Promise.all(options.nextKeys.map(nextKeyHash)) : undefined;
  const witness = witnessParameter(options.witness);
  const result = await offline(() =>
    webvh.updateDID({
      log,
      signer: options.signer,
      verifier: oracleVerifier,
      updated: options.updated,
      witnessProofs: options.witnessProofs ?? [],
      ...(options.updateKeys ? { updateKeys: options.updateKeys.map((k) => k.multikey) } : {}),
      ...(options.keys ? { verificationMethods: verificationMethods(options.keys) } : {}),
      ...(nextKeyHashes ? { nextKeyHashes } : {}),
      ...(witness !== undefined ? { witness } : {}),
      ...(options.services ? { services: options.services } : {}),
      ...(options.alsoKnownAs ? { alsoKnownAs: options.alsoKnownAs } : {}),
    }),
  );
  return { did: result.did, log: result.log, doc: result.doc, meta: result.meta };
}

export interface DeactivateLogOptions {
  /** An active update key. */
  signer: TestSigner;
  /** versionTime of the deactivating entry. */
  at: string;
}

/**
 * Appends a deactivation (`parameters: {updateKeys, deactivated: true}`, same state). Not for
 * witnessed logs: didwebvh-ts's deactivateDID re-resolves the log without witness proofs and
 * would fetch them (here: fail).
 */
export async function deactivateLog(log: DIDLog, options: DeactivateLogOptions): Promise<LogResult> {
  const result = await offline(() => atFixedTime(options.at, () => webvh.deactivateDID({ log, signer: options.signer, verifier: oracleVerifier })));
  return { did: result.did, log: result.log, doc: result.doc, meta: result.meta };
}

export interface AppendEntryOptions {
  signer: TestSigner;
  updated: string;
  updateKeys?: TestSigner[];
  keys?: TestSigner[];
  nextKeys?: TestSigner[];
  witness?: TestWitnessRule | null;
}

/**
 * The entry updateDID would append for these options (same members, same order, same bytes),
 * built without updateDID's re-resolution of the whole log, which makes a log of n entries cost
 * O(n²) (~19 s for 120). For long logs (the benchmark). Nothing is checked here: the caller
 * compares a few entries with updateDID's and resolves the result with didwebvh-ts.
 *
 * Supports what updateDID does for these options on a log whose watchers are [] and whose
 * verification methods have no `purpose`. The entry hash is didwebvh-ts's own JCS and SHA-256:
 * the last 32 bytes of prepareDataForSigning(doc, …) are SHA-256(JCS(doc)).
 */
export async function appendEntryFast(log: DIDLog, options: AppendEntryOptions): Promise<DIDLog> {
  const last = log[log.length - 1];
  if (!last) throw new Error('appendEntryFast needs a log with a first entry');
  const did = last.state.id;
  if (typeof did !== 'string') throw new Error('the last entry has no state.id');

  const parameters: Record<string, unknown> = {};
  if (options.updateKeys) parameters['updateKeys'] = options.updateKeys.map((k) => k.multikey);
  if (options.nextKeys) parameters['nextKeyHashes'] = await Promise.all(options.nextKeys.map(nextKeyHash));
  parameters['witness'] = options.witness ? { witnesses: options.witness.witnesses.map((w) => ({ id: w.did })), threshold: options.witness.threshold } : {};
  parameters['watchers'] = [];

  const state = JSON.parse(JSON.stringify(last.state)) as DIDDoc;
  state['id'] = did;
  state['controller'] = did;
  if (options.keys) {
    const ids = options.keys.map((k) => `${did}#${k.multikey.slice(-8)}`);
    state['verificationMethod'] = options.keys.map((k, i) => ({ type: 'Multikey', publicKeyMultibase: k.multikey, id: ids[i], controller: did }));
    state['authentication'] = ids;
    state['assertionMethod'] = [];
    state['keyAgreement'] = [];
    state['capabilityDelegation'] = [];
    state['capabilityInvocation'] = [];
  }

  const proof: ProofTemplate = {
    type: 'DataIntegrityProof',
    cryptosuite: 'eddsa-jcs-2022',
    verificationMethod: options.signer.getVerificationMethodId(),
    created: options.updated,
    proofPurpose: 'assertionMethod',
  };
  const chained = { versionId: last.versionId, versionTime: options.updated, parameters, state };
  const digest = (await webvh.prepareDataForSigning(chained, proof)).subarray(32);
  const entryHash = webvh.multibaseEncode(Uint8Array.from([0x12, 0x20, ...digest]), 'z').slice(1);
  const entry: DIDLogEntry = { ...chained, versionId: `${log.length + 1}-${entryHash}` };
  const { proofValue } = await options.signer.sign({ document: entry, proof });
  return [...log, { ...entry, proof: [{ ...proof, proofValue }] }];
}

// ---------------------------------------------------------------------------------------------
// Witness proofs (did-witness.json)
// ---------------------------------------------------------------------------------------------

/**
 * One `did-witness.json` item: each witness's eddsa-jcs-2022 DataIntegrityProof over the
 * document `{versionId}`, verificationMethod `did:key:<mb>#<mb>`, proofPurpose assertionMethod —
 * made by didwebvh-ts's own signWitnessProofEntry, so it is what that library produces and
 * accepts. `created` defaults to T0.
 */
export async function witnessApproval(versionId: string, witnesses: readonly TestSigner[], created = T0): Promise<WitnessProofFileEntry> {
  const entry = await webvh.signWitnessProofEntry({
    versionId,
    witnesses: witnesses.map((w) => ({ id: w.did })),
    witnessSignersByDid: Object.fromEntries(witnesses.map((w) => [w.did, w])),
    created,
  });
  // createWitnessProof leaves `id: undefined` in each proof; a JSON round trip drops it.
  return JSON.parse(JSON.stringify(entry)) as WitnessProofFileEntry;
}

/** The `did-witness.json` text for these items. */
export function witnessFile(entries: readonly WitnessProofFileEntry[]): string {
  return `${JSON.stringify(entries)}\n`;
}

// ---------------------------------------------------------------------------------------------
// Serialisation
// ---------------------------------------------------------------------------------------------

/** `did.jsonl`: one entry per line, no whitespace, final newline. */
export function toJsonl(log: DIDLog): string {
  return log.map((entry) => JSON.stringify(entry)).join('\n') + '\n';
}

export function parseJsonl(text: string): DIDLog {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DIDLog[number]);
}

// ---------------------------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------------------------

export interface OracleQuery {
  versionNumber?: number;
  versionId?: string;
  versionTime?: string | Date;
  /** did-witness.json, as text or parsed; default none (an empty list: nothing is fetched). */
  witness?: string | readonly WitnessProofFileEntry[] | null;
}

/**
 * didwebvh-ts's answer. `ok: true` whenever resolveDIDFromLog returned — which it also does for
 * `meta.error` 'notFound' (doc null, meta of the latest valid version) and 'invalidDid' (doc of
 * the selected version), so callers check `meta.error`. `ok: false` when it threw, which it does
 * for most broken logs.
 */
export type OracleResult = { ok: true; doc: DIDDoc | null; meta: DIDResolutionMeta; did: string } | { ok: false; error: string };

export async function oracleResolve(log: DIDLog | string, query: OracleQuery = {}): Promise<OracleResult> {
  const entries = typeof log === 'string' ? parseJsonl(log) : log;
  const witnessProofs =
    query.witness === undefined || query.witness === null
      ? []
      : typeof query.witness === 'string'
        ? (JSON.parse(query.witness) as WitnessProofFileEntry[])
        : [...query.witness];
  const versionTime = query.versionTime === undefined ? undefined : new Date(query.versionTime);
  try {
    const result = await offline(() =>
      webvh.resolveDIDFromLog(entries, {
        verifier: oracleVerifier,
        witnessProofs,
        ...(query.versionNumber !== undefined ? { versionNumber: query.versionNumber } : {}),
        ...(query.versionId !== undefined ? { versionId: query.versionId } : {}),
        ...(versionTime !== undefined ? { versionTime } : {}),
      }),
    );
    return { ok: true, doc: result.doc, meta: result.meta, did: result.did };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
