/**
 * Paths from the table's templates: the SDK's request path (each parameter validated and
 * percent-encoded) and the mock router's pattern.
 * @module
 */
import { segment } from './segment.js';
import type { EndpointDef } from './types.js';

/**
 * The request path of an entry with its parameters filled in: every `{name}` through `segment`
 * (refusing `.`, `..`, `/`, empty), except the entry's `restParam`, whose `/`-separated parts
 * are each a segment.
 */
export function buildPath(entry: Pick<EndpointDef, 'path' | 'restParam'>, params?: Record<string, unknown>): string {
  if (!entry.path.includes('{')) return entry.path;
  return entry.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (name === entry.restParam && typeof value === 'string')
      return value
        .split('/')
        .map((part) => segment(part, name))
        .join('/');
    return segment(value, name);
  });
}

/** The mock router's pattern of a template: `{id}` -> `:id`, the rest parameter -> `*name`. */
export function routePattern(entry: Pick<EndpointDef, 'path' | 'restParam'>): string {
  return entry.path.replace(/\{(\w+)\}/g, (_, name: string) => (name === entry.restParam ? `*${name}` : `:${name}`));
}
