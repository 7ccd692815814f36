// Types of build-server.mjs for the TypeScript that imports it (bench/http-floor.ts).
export declare const SERVER_DIST: string;
export declare function bundleServer(entry: string, outdir: string): Promise<void>;
export declare function buildServerIfChanged(): Promise<boolean>;
