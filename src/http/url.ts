/** `base + path`, plus a query string of the defined values (undefined ones are left out). */
export function buildUrl(base: string, path: string, query?: Record<string, unknown>): string {
  let url = base + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    if (qs) url += `?${qs}`;
  }
  return url;
}
