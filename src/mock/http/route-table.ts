/**
 * The mock's route table, compiled once: exact static paths in a map, parametrised ones
 * (`:id`, a trailing `*rest`) by method and segment count. A trailing slash is ignored and
 * a malformed percent-escape is a 400 on any path, routed or not.
 * @module
 */
import { MockApiError } from '../shared/errors.js';
import type { RouteDef } from './route.js';

interface Compiled {
  route: RouteDef;
  segments: string[];
  /** Index of the `*rest` segment, or -1. */
  rest: number;
}

/** A matched route and its decoded path parameters. */
export type Match = { route: RouteDef; params: Record<string, string> };

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** The route table: exact static paths in a map, parametrised ones by method and segment count. */
export class RouteTable {
  readonly #static = new Map<string, RouteDef>();
  readonly #dynamic = new Map<string, Compiled[]>();

  constructor(routes: readonly RouteDef[]) {
    for (const route of routes) {
      const segments = route.path.split('/');
      if (!segments.some((s) => s.startsWith(':') || s.startsWith('*'))) {
        const key = `${route.method} ${route.path}`;
        if (!this.#static.has(key)) this.#static.set(key, route);
        continue;
      }
      const rest = segments.findIndex((s) => s.startsWith('*'));
      if (rest !== -1 && rest !== segments.length - 1) throw new Error(`${route.path}: *rest must be the last segment`);
      const list = this.#dynamic.get(route.method) ?? [];
      list.push({ route, segments, rest });
      this.#dynamic.set(route.method, list);
    }
  }

  /** The route for a method and raw path; throws VALIDATION_ERROR on a malformed percent-escape. */
  match(method: string, rawPath: string): Match | undefined {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    if (path.includes('%')) decode(path); // a malformed escape is a 400 on any path, routed or not
    const found = this.#static.get(`${method} ${path}`);
    if (found) return { route: found, params: NO_PARAMS };
    const list = this.#dynamic.get(method);
    if (!list) return undefined;
    const parts = path.split('/');
    for (const c of list) {
      const n = c.segments.length;
      if (c.rest === -1 ? parts.length !== n : parts.length < n) continue;
      let ok = true;
      for (let i = 0; i < n && ok; i++) {
        const seg = c.segments[i]!;
        if (seg.startsWith(':') || seg.startsWith('*')) ok = parts[i] !== '';
        else ok = seg === parts[i];
      }
      if (!ok) continue;
      const params: Record<string, string> = {};
      for (let i = 0; i < n; i++) {
        const seg = c.segments[i]!;
        if (seg.startsWith(':')) params[seg.slice(1)] = decode(parts[i]!);
        else if (seg.startsWith('*')) params[seg.slice(1)] = decode(parts.slice(i).join('/'));
      }
      return { route: c.route, params };
    }
    return undefined;
  }
}

function decode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new MockApiError('VALIDATION_ERROR', 'The path has a malformed percent-escape', { field: 'path' }, 400);
  }
}
