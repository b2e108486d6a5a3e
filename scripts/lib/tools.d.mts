// Types for scripts/lib/tools.mjs (imported by tests written in TypeScript).
export declare const INSTALL_TIMEOUT_MS: number;
export declare function toolNames(): string[];
export declare function cacheRoot(): string;
export declare function toolDir(name: string, options?: { quiet?: boolean }): string;
export declare function toolResolve(name: string, specifier: string): string;
export declare function toolImport<T = Record<string, unknown>>(name: string, specifier: string): Promise<T>;
export declare function toolPackageRoot(name: string, packageName: string): string;
export declare function toolBin(name: string, binName?: string): string;
export declare function toolPackage(name: string): string;
