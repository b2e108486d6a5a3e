/**
 * Checks HTTP exchanges against the generated OpenAPI document with Ajv (JSON Schema 2020-12,
 * the dialect of OpenAPI 3.1) and ajv-formats: the status must be one the operation documents,
 * the body must match that response's schema, required headers must be present and every
 * documented header must match its schema (base64 JSON headers are decoded and checked against
 * their `contentSchema`).
 *
 * A second, closed copy of the document (every object schema with declared properties gets
 * `additionalProperties: false`) reports the fields a response carries that the document does
 * not declare: allowed by the contract, but worth knowing (fidelity findings).
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenApiDocument } from '../../src/openapi/document.js';

type Json = { [key: string]: unknown };

/** One HTTP exchange as seen on the wire. */
export interface Exchange {
  status: number;
  headers: Headers;
  /** The body as text ('' when there is none). */
  text: string;
}

export interface CheckResult {
  /** Contract violations: any one fails the test. */
  problems: string[];
  /** Undeclared response fields, as `<instance path>` with array indices as `*`. */
  extras: string[];
}

const DOC_ID = 'https://trx-rent.invalid/openapi.json';
/** OpenAPI's own top-level keys: not JSON Schema keywords, so Ajv must be told to ignore them. */
const OPENAPI_KEYS = ['openapi', 'info', 'servers', 'tags', 'paths', 'components', 'security', 'webhooks', 'jsonSchemaDialect', 'externalDocs'];

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function newAjv(doc: Json): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true, validateFormats: true });
  addFormats(ajv);
  ajv.addVocabulary(OPENAPI_KEYS);
  ajv.addSchema(doc, DOC_ID);
  return ajv;
}

/** Every object schema that declares properties gets additionalProperties: false (`{}` ones, "fields not shown", stay open). */
function closeObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(closeObjects);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value as Json)) out[k] = closeObjects(v);
  if (out.type === 'object' && out.properties && typeof out.properties === 'object' && Object.keys(out.properties).length > 0) {
    const extra = out.additionalProperties;
    if (extra === undefined || (extra && typeof extra === 'object' && Object.keys(extra).length === 0)) out.additionalProperties = false;
  }
  return out;
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map(
    (e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

function decodeBase64Json(value: string): unknown {
  return JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
}

export class ContractValidator {
  readonly #doc: Json;
  readonly #ajv: Ajv2020;
  readonly #closed: Ajv2020;
  readonly #cache = new Map<string, ValidateFunction>();

  constructor(doc: OpenApiDocument) {
    this.#doc = structuredClone(doc) as unknown as Json;
    this.#ajv = newAjv(this.#doc);
    this.#closed = newAjv(closeObjects(this.#doc) as Json);
  }

  /** `GET /api/v1/orders/{id}` -> the operation object and its JSON pointer. */
  operation(key: string): { op: Json; pointer: string } {
    const [method, path] = key.split(' ') as [string, string];
    const item = (this.#doc.paths as Record<string, Json>)[path];
    const op = item?.[method.toLowerCase()] as Json | undefined;
    if (!op) throw new Error(`the document has no operation ${key}`);
    return { op, pointer: `/paths/${escapePointer(path)}/${method.toLowerCase()}` };
  }

  /** Follow a local `$ref` (responses, headers, parameters) to the object and its pointer. */
  #resolve(value: Json, pointer: string): { value: Json; pointer: string } {
    const target = value.$ref;
    if (typeof target !== 'string') return { value, pointer };
    if (!target.startsWith('#/')) throw new Error(`unsupported $ref ${target}`);
    let node: unknown = this.#doc;
    for (const part of target.slice(2).split('/')) node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!node || typeof node !== 'object') throw new Error(`dangling $ref ${target}`);
    return this.#resolve(node as Json, target.slice(1));
  }

  #validator(ajv: Ajv2020, pointer: string): ValidateFunction {
    const id = `${ajv === this.#ajv ? 'open' : 'closed'}${pointer}`;
    let fn = this.#cache.get(id);
    if (!fn) {
      fn = ajv.getSchema(`${DOC_ID}#${pointer}`);
      if (!fn) throw new Error(`no schema at ${pointer}`);
      this.#cache.set(id, fn);
    }
    return fn;
  }

  /** Validate `value` against the schema at a pointer of the document. */
  validateAt(pointer: string, value: unknown): string[] {
    const fn = this.#validator(this.#ajv, pointer);
    return fn(value) ? [] : describe(fn.errors);
  }

  /** Problems of a request body against the operation's requestBody schema. */
  checkRequestBody(key: string, body: unknown): string[] {
    const { op, pointer } = this.operation(key);
    if (!op.requestBody) return ['the operation takes no request body'];
    return this.validateAt(`${pointer}/requestBody/content/application~1json/schema`, body);
  }

  /**
   * Check one exchange against operation `key`. The status must be documented explicitly, unless
   * `allowDefault` (then the operation's `default` response applies).
   */
  checkResponse(key: string, exchange: Exchange, options: { allowDefault?: boolean } = {}): CheckResult {
    const problems: string[] = [];
    const extras: string[] = [];
    const { op, pointer } = this.operation(key);
    const responses = op.responses as Record<string, Json>;
    const status = String(exchange.status);
    let name = status in responses ? status : undefined;
    if (!name && options.allowDefault && responses.default) name = 'default';
    if (!name) return { problems: [`status ${status} is not documented for ${key} (documented: ${Object.keys(responses).join(', ')})`], extras };
    const { value: response, pointer: responsePointer } = this.#resolve(responses[name]!, `${pointer}/responses/${escapePointer(name)}`);

    // headers
    for (const [headerName, raw] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const { value: header, pointer: headerPointer } = this.#resolve(raw, `${responsePointer}/headers/${escapePointer(headerName)}`);
      const sent = exchange.headers.get(headerName);
      if (sent === null) {
        if (header.required === true) problems.push(`required header ${headerName} is missing`);
        continue;
      }
      const schema = header.schema as Json | undefined;
      if (!schema) continue;
      let value: unknown = sent;
      if (schema.type === 'integer' || schema.type === 'number') value = /^-?\d+(\.\d+)?$/.test(sent) ? Number(sent) : sent;
      problems.push(...this.validateAt(`${headerPointer}/schema`, value).map((p) => `header ${headerName}: ${p}`));
      if (schema.contentEncoding === 'base64' && schema.contentMediaType === 'application/json' && schema.contentSchema) {
        let decoded: unknown;
        try {
          decoded = decodeBase64Json(sent);
        } catch {
          problems.push(`header ${headerName} is not base64 JSON`);
          continue;
        }
        problems.push(...this.validateAt(`${headerPointer}/schema/contentSchema`, decoded).map((p) => `header ${headerName} (decoded): ${p}`));
        for (const e of this.#extras(`${headerPointer}/schema/contentSchema`, decoded)) extras.push(`header ${headerName}${e}`);
      }
    }

    // body
    const content = response.content as Record<string, Json> | undefined;
    const json = content?.['application/json'];
    if (!json) {
      if (exchange.text !== '') problems.push(`a body was sent where the document shows none: ${exchange.text.slice(0, 200)}`);
      return { problems, extras };
    }
    const type = exchange.headers.get('content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) problems.push(`content-type is ${type || '(none)'}, not application/json`);
    let body: unknown;
    try {
      body = JSON.parse(exchange.text);
    } catch {
      problems.push(`the body is not JSON: ${exchange.text.slice(0, 200)}`);
      return { problems, extras };
    }
    const schemaPointer = `${responsePointer}/content/application~1json/schema`;
    problems.push(...this.validateAt(schemaPointer, body).map((p) => `body ${p}`));
    extras.push(...this.#extras(schemaPointer, body));
    return { problems, extras };
  }

  /** Fields the closed document rejects: undeclared properties, as instance paths. */
  #extras(pointer: string, value: unknown): string[] {
    const fn = this.#validator(this.#closed, pointer);
    if (fn(value)) return [];
    const out = new Set<string>();
    for (const e of fn.errors ?? []) {
      if (e.keyword !== 'additionalProperties') continue;
      const path = `${e.instancePath}/${String((e.params as { additionalProperty: string }).additionalProperty)}`.replace(/\/\d+(?=\/|$)/g, '/*');
      out.add(path);
    }
    return [...out];
  }
}
