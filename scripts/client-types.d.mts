/** Declarations of scripts/client-types.mjs (for the test that imports it). */
export declare const clientTypesPath: string;
export declare function clientTypes(): Promise<string>;
