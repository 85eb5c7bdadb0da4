export declare const repoRoot: string;
export declare const packedDir: string;
export declare const packageDirs: string[];
/** The tarballs of .cache/tarballs by package name when packed after the last change to any package. */
export declare function freshTarballs(): Record<string, string> | undefined;
/** `pnpm pack` of every package into `out`; resolves to the tarballs by package name. */
export declare function packInto(out: string): Promise<Record<string, string>>;
