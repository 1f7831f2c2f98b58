/** The little of Digital Bazaar's `jsonld` and `rdf-canonize` (no types of their own) that canonicaliser.ts uses. */
declare module 'jsonld' {
  const jsonld: {
    toRDF(input: unknown, options: Record<string, unknown>): Promise<unknown>;
  };
  export default jsonld;
}

declare module 'rdf-canonize' {
  export function canonize(dataset: unknown, options: Record<string, unknown>): Promise<string>;
}
