// Paths of the documents about a host that more than one room reads.

/** Whether `path` (query string included) is under `basePath`'s API. */
export function isRegistryPath(basePath: string, path: string): boolean {
  return (
    path === `${basePath}/agents` ||
    path.startsWith(`${basePath}/agents?`) ||
    path.startsWith(`${basePath}/agents/`) ||
    path === `${basePath}/search` ||
    path.startsWith(`${basePath}/search?`)
  );
}
