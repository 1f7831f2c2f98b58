/**
 * The pinned JSON-LD context set: the only contexts svc interprets terms by. Each is shipped in
 * the package (bundled into the lazily loaded chunk of src/jsonld/) and never fetched; its
 * SHA-256 is over the file's bytes as taken from its source, and test/unit/jsonld-contexts.test.ts
 * holds both. Sources: the npm packages or public repositories that publish them, named below.
 */
import credentialsV1 from './contexts/credentials-v1.json' with { type: 'json' };
import credentialsV2 from './contexts/credentials-v2.json' with { type: 'json' };
import dataIntegrityV1 from './contexts/data-integrity-v1.json' with { type: 'json' };
import dataIntegrityV2 from './contexts/data-integrity-v2.json' with { type: 'json' };
import ed25519Signature2020V1 from './contexts/ed25519-signature-2020-v1.json' with { type: 'json' };
import bitstringStatusListV1 from './contexts/bitstring-status-list-v1.json' with { type: 'json' };
import statusList2021V1 from './contexts/status-list-2021-v1.json' with { type: 'json' };
import obV3p0 from './contexts/ob-v3p0.json' with { type: 'json' };
import obV3p0301 from './contexts/ob-v3p0-3.0.1.json' with { type: 'json' };
import obV3p0302 from './contexts/ob-v3p0-3.0.2.json' with { type: 'json' };
import obV3p0303 from './contexts/ob-v3p0-3.0.3.json' with { type: 'json' };
import obV3p0Extensions from './contexts/ob-v3p0-extensions.json' with { type: 'json' };
import clrV2p0 from './contexts/clr-v2p0.json' with { type: 'json' };
import clrV2p0201 from './contexts/clr-v2p0-2.0.1.json' with { type: 'json' };

export interface PinnedContext {
  url: string;
  /** The file under src/jsonld/contexts/. */
  file: string;
  /** Hex SHA-256 of the file's bytes. */
  sha256: string;
  /** Where it was taken from. */
  source: string;
  document: unknown;
}

export const PINNED_CONTEXTS: readonly PinnedContext[] = [
  {
    url: 'https://www.w3.org/2018/credentials/v1',
    file: 'credentials-v1.json',
    sha256: '00d7dd6d3ad8b920e3e550dd3a3d9090bffcac84cdbf943da6924b3e0a5c8bb8',
    source: 'npm @digitalbazaar/credentials-context@3.2.0 contexts/v1.jsonld',
    document: credentialsV1,
  },
  {
    url: 'https://www.w3.org/ns/credentials/v2',
    file: 'credentials-v2.json',
    sha256: '8a9f494a89ecc51db093e90e84713e07e84d6d9204364a9b3c7868b21751236f',
    source: 'npm @digitalbazaar/credentials-context@3.2.0 contexts/v2.jsonld',
    document: credentialsV2,
  },
  {
    url: 'https://w3id.org/security/data-integrity/v1',
    file: 'data-integrity-v1.json',
    sha256: 'b5d829bd09aa7c42abc6efa0c8ed7635313b5487f37ccfce3ecd149ca9418554',
    source: 'npm @digitalbazaar/data-integrity-context@2.0.1 contexts/data-integrity-v1.jsonld',
    document: dataIntegrityV1,
  },
  {
    url: 'https://w3id.org/security/data-integrity/v2',
    file: 'data-integrity-v2.json',
    sha256: '0f77743daf5b4e8fc067fc5ba5b21044283053aa717fc6b0219843bed3b00363',
    source: 'npm @digitalbazaar/data-integrity-context@2.0.1 contexts/data-integrity-v2.jsonld',
    document: dataIntegrityV2,
  },
  {
    url: 'https://w3id.org/security/suites/ed25519-2020/v1',
    file: 'ed25519-signature-2020-v1.json',
    sha256: 'b9e1ab971fd8bf2c7553e0c4a9438e0b9450afde1ea1ca5b2492368b9f549588',
    source: 'npm ed25519-signature-2020-context@1.1.0 contexts/ed25519-signature-2020-v1.jsonld',
    document: ed25519Signature2020V1,
  },
  {
    url: 'https://www.w3.org/ns/credentials/status/v1',
    file: 'bitstring-status-list-v1.json',
    sha256: 'fd08cbf28ddd829ab2f1978c48f43ab07a112c1c90245a0cfac7ba721c65170c',
    source: 'npm @digitalbazaar/vc-bitstring-status-list-context@1.1.0 contexts/vc-bitstring-status-list-v1.jsonld',
    document: bitstringStatusListV1,
  },
  {
    url: 'https://w3id.org/vc/status-list/2021/v1',
    file: 'status-list-2021-v1.json',
    sha256: '634d71c159289f068c96012e4511c657fdf82ac4231900081bda3ba24e2e1160',
    source: 'github digitalbazaar/vc-status-list-context@19037b854aeb9af81cf106b2ba11a968eef70a48 contexts/vc-status-list-v1.jsonld',
    document: statusList2021V1,
  },
  {
    url: 'https://purl.imsglobal.org/spec/ob/v3p0/context.json',
    file: 'ob-v3p0.json',
    sha256: 'b077fa134d909d92c1dcd1c153f2af1b244aeb415967fdc1467d7fc5dd48ac10',
    source:
      'github 1EdTech/digital-credentials-public-validator@38254719cf0a490a403c9c812b01e6ab0678f2f3 inspector-vc/src/main/resources/contexts/ob-v3p0.json',
    document: obV3p0,
  },
  {
    url: 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.1.json',
    file: 'ob-v3p0-3.0.1.json',
    sha256: 'cfc147db5fd5e3575b06bd471fe04784e92de69296f64a351b8dff0ec3372e9c',
    source:
      'github 1EdTech/digital-credentials-public-validator@38254719cf0a490a403c9c812b01e6ab0678f2f3 inspector-vc/src/main/resources/contexts/ob-v3p0-3.0.1.json',
    document: obV3p0301,
  },
  {
    url: 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.2.json',
    file: 'ob-v3p0-3.0.2.json',
    sha256: 'bba433989e1e700ca60838a3c22378e7d8381aeb0c9590f9ddf84d1714f10296',
    source:
      'github 1EdTech/digital-credentials-public-validator@38254719cf0a490a403c9c812b01e6ab0678f2f3 inspector-vc/src/main/resources/contexts/ob-v3p0-3.0.2.json',
    document: obV3p0302,
  },
  {
    url: 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
    file: 'ob-v3p0-3.0.3.json',
    sha256: '3d34f4d4ef1bce691106e63798beb5e7b862ba841423f5ee1e53ab7ddf3bca84',
    source:
      'github 1EdTech/digital-credentials-public-validator@38254719cf0a490a403c9c812b01e6ab0678f2f3 inspector-vc/src/main/resources/contexts/ob-v3p0-3.0.3.json',
    document: obV3p0303,
  },
  {
    url: 'https://purl.imsglobal.org/spec/ob/v3p0/extensions.json',
    file: 'ob-v3p0-extensions.json',
    sha256: '146f85aa16effd7ca1da8056eb443f53ce1eca8a34186cb062832c0a97d889c3',
    source:
      'github 1EdTech/digital-credentials-public-validator@38254719cf0a490a403c9c812b01e6ab0678f2f3 inspector-vc/src/main/resources/contexts/ob-v3p0-extensions.json',
    document: obV3p0Extensions,
  },
  {
    url: 'https://purl.imsglobal.org/spec/clr/v2p0/context.json',
    file: 'clr-v2p0.json',
    sha256: 'e198d7b517d74c5036434ce495086f67b10244709e9a3df9dcb7f8b1579b6167',
    source:
      'github 1EdTech/digital-credentials-public-validator@38254719cf0a490a403c9c812b01e6ab0678f2f3 inspector-vc/src/main/resources/contexts/clr-v2p0.json',
    document: clrV2p0,
  },
  {
    url: 'https://purl.imsglobal.org/spec/clr/v2p0/context-2.0.1.json',
    file: 'clr-v2p0-2.0.1.json',
    sha256: '880f1902d4158f2f33ce06af41b90719977cd1ea337a9de2e41edb3ff5e543d6',
    source:
      'github 1EdTech/digital-credentials-public-validator@38254719cf0a490a403c9c812b01e6ab0678f2f3 inspector-vc/src/main/resources/contexts/clr-v2p0-2.0.1.json',
    document: clrV2p0201,
  },
];
