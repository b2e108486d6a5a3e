/**
 * The service contract as an OpenAPI 3.1 document, generated from the endpoint table
 * (`src/api/endpoints.ts`) alone: one operation per entry, with its path, method, parameters
 * (path and query schemas, their descriptions and defaults set on the schemas in `src/schemas`),
 * request body, success response (in `{ data }` where the entry says so), every error status the
 * entry gives (`allErrors`: its own plus 401/403/402/429 from its auth and rate-limit group),
 * security from `auth`, the x402 price and 402 challenge on paid routes, the Idempotency-Key
 * where the entry honours one, and `x-trx-rent-source` from `source`.
 *
 * Nothing here names a path or states a fact about one endpoint: a new table entry is a new
 * operation. `scripts/openapi.mjs` writes the document to `dist/openapi.json` (shipped as
 * `trx-rent/openapi.json`); the mock serves it at `/openapi.json`.
 *
 * @module
 */
import type * as z from 'zod';
import { ENDPOINT_LIST, allErrors, type EndpointDef, type EndpointError, type EndpointId } from '../api/endpoints.js';
import { PACKAGE_VERSION, SPEC_VERSIONS } from './version.js';
import { LIMITS } from '../schemas/limits.js';
import { ERROR_STATUS, ErrorEnvelope, ErrorCodeSchema } from '../schemas/errors.js';
import { SettlementResponse } from '../schemas/x402.js';
import { HEADERS } from '../protocol/codec.js';
import { ACCOUNT_RESPONSE_REPLACE, PaymentRequired, X402_RESPONSE_REPLACE, errorWithCodes, schemaNames } from './components.js';
import { COMPONENT_PREFIX, type ConvertOptions, type JsonSchema, convertComponents, convertSchema } from './json-schema.js';

/** An OpenAPI 3.1 document as plain JSON data. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: JsonSchema;
  servers: JsonSchema[];
  tags: JsonSchema[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    headers: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
  [extension: `x-${string}`]: unknown;
}

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiDocumentOptions {
  /** `info.version`: the package version that generated the document. @default package.json's version */
  version?: string;
  /** Default of the `base_url` server variable. @default 'http://127.0.0.1:8787' (the mock) */
  serverUrl?: string;
}

export { SPEC_VERSIONS } from './version.js';

type Entry = EndpointDef & { id: EndpointId };

const ref = (name: string) => ({ $ref: `${COMPONENT_PREFIX}${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
/** Component name of PAYMENT-RESPONSE on a paid 200, where it is required. */
const SETTLED = `${HEADERS.PAYMENT_RESPONSE}-settled`;
/** Errors any operation may answer, documented under `default`; joined to an explicit status of theirs. */
const ANY_OPERATION = ['INTERNAL_ERROR', 'MAINTENANCE'] as const;

/** Every operation of the contract as `METHOD /path/{param}` (the entry's method and path template), in table order. */
export const OPERATION_KEYS: readonly string[] = ENDPOINT_LIST.map((e) => `${e.method} ${e.path}`);

/** The tag of an entry: the SDK resource it belongs to (`orders.create` -> Orders), or Pay-per-call. */
function tagOf(entry: Entry): string {
  if (entry.api === 'x402') return 'Pay-per-call';
  const resource = typeof entry.sdk === 'string' ? entry.sdk.split('.')[0]! : 'other';
  return resource.charAt(0).toUpperCase() + resource.slice(1);
}

/** What each tag (an SDK resource) is about; a tag without a line here gets a generated one. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Keys: 'API keys and their permissions.',
  Prices: 'Provider prices, polled every 30 seconds.',
  Orders: 'Renting energy and bandwidth.',
  Balance: 'The account balance.',
  History: 'Spending history.',
  Deposits: 'TRX deposits by on-chain transfer with a per-user memo.',
  Withdrawals: 'Withdrawals to a TRON address.',
  Webhooks: 'Order, deposit and withdrawal events.',
  Transactions: 'Broadcasting signed transactions (permission broadcast).',
  'Pay-per-call': 'The x402 API under /x402/tron: each call is paid with a stablecoin payment, no account.',
};

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

// ---- component schemas: every body and response of the table, named by its export name ----

interface Components {
  schemas: Record<string, JsonSchema>;
  /** Component name of each body and response schema. */
  names: Map<z.core.$ZodType, string>;
}

function components(): Components {
  const exported = schemaNames();
  const names = new Map<z.core.$ZodType, string>();
  const schemas: Record<string, JsonSchema> = {};
  /** Convert `roots` (schema, name when it has no export name; `force`: this name regardless). */
  const group = (roots: ReadonlyArray<readonly [z.core.$ZodType, string, 'force'?]>, options: ConvertOptions) => {
    const named: Array<readonly [string, z.core.$ZodType]> = [];
    for (const [schema, fallback, force] of roots) {
      if (names.has(schema)) continue;
      const name = (force ? undefined : exported.get(schema)) ?? fallback;
      names.set(schema, name);
      named.push([name, schema]);
    }
    for (const [name, json] of Object.entries(convertComponents(named, options))) {
      if (name in schemas) throw new Error(`OpenAPI component ${name} is defined twice`);
      schemas[name] = json;
    }
  };
  const of = (api: Entry['api'], pick: (e: Entry) => z.core.$ZodType | undefined, suffix: string) =>
    ENDPOINT_LIST.filter((e) => e.api === api && pick(e)).map((e) => [pick(e)!, `${pascal(e.id)}${suffix}`] as const);
  group(
    of('account', (e) => e.body, 'Request'),
    { io: 'input' },
  );
  group(
    of('account', (e) => e.response, 'Response'),
    { io: 'output', replace: ACCOUNT_RESPONSE_REPLACE },
  );
  group(
    of('x402', (e) => e.body, 'Request'),
    { io: 'input' },
  );
  group(
    [...of('x402', (e) => e.response, 'Response'), [PaymentRequired, 'X402PaymentRequired', 'force'], [SettlementResponse, 'X402SettlementResponse', 'force']],
    { io: 'output', looseNumberAs: 'integer', replace: X402_RESPONSE_REPLACE },
  );
  group([[ErrorEnvelope, 'Error', 'force']], { io: 'output', replace: new Map([[ErrorCodeSchema, { type: 'string' }]]) });
  return { schemas, names };
}

// ---- operations ----

function parameters(entry: Entry): JsonSchema[] {
  const out: JsonSchema[] = [];
  const add = (where: 'path' | 'query', schema: z.core.$ZodType) => {
    const json = convertSchema(schema, { io: 'output' });
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, property] of Object.entries((json.properties ?? {}) as Record<string, JsonSchema>)) {
      const { description, ...rest } = property;
      const spans = name === entry.restParam ? 'It may span several path segments (`a/b`), or be sent percent-encoded (`a%2Fb`).' : undefined;
      const text = [description, spans].filter(Boolean).join(' ');
      out.push({ name, in: where, required: where === 'path' || required.has(name), ...(text ? { description: text } : {}), schema: rest });
    }
  };
  if (entry.params) add('path', entry.params);
  if (entry.query) add('query', entry.query);
  if (entry.idempotent) out.push({ $ref: '#/components/parameters/IdempotencyKey' });
  return out;
}

const RATE_HEADERS = {
  'RateLimit-Limit': headerRef('RateLimit-Limit'),
  'RateLimit-Remaining': headerRef('RateLimit-Remaining'),
  'RateLimit-Reset': headerRef('RateLimit-Reset'),
};

function successResponses(entry: Entry, name: string): Record<string, JsonSchema> {
  const paid = entry.auth === 'x402';
  const schema = entry.dataEnvelope ? { type: 'object', properties: { data: ref(name) }, required: ['data'], additionalProperties: false } : ref(name);
  const content = { 'application/json': { schema } };
  const headers: Record<string, JsonSchema> = paid ? { [HEADERS.PAYMENT_RESPONSE]: headerRef(SETTLED) } : { ...RATE_HEADERS };
  const description = paid ? 'The result in `{ data }`, with the settlement in PAYMENT-RESPONSE.' : 'Success.';
  const replay = 'A replay of an earlier request with the same Idempotency-Key and body: the original response.';
  const replayed = { ...headers, 'Idempotent-Replayed': headerRef('Idempotent-Replayed') };
  const out: Record<string, JsonSchema> = {};
  if (!entry.idempotent) out[entry.status] = { description, headers, content };
  else if (entry.status === 200) out['200'] = { description: `${description} ${replay}`, headers: replayed, content };
  else {
    out[entry.status] = { description, headers, content };
    out['200'] = { description: replay, headers: replayed, content };
  }
  return out;
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

function errorResponses(entry: Entry): Record<string, JsonSchema> {
  const byStatus = new Map<number, EndpointError[]>();
  for (const error of allErrors(entry)) byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  const out: Record<string, JsonSchema> = {};
  for (const [status, errors] of byStatus) {
    if (status === 402 && errors.some((e) => e.code === 'PAYMENT_REQUIRED')) {
      out['402'] = responseRef('PaymentRequired');
      continue;
    }
    const codes = [...new Set([...errors.map((e) => e.code), ...ANY_OPERATION.filter((c) => ERROR_STATUS[c] === status)])] as [string, ...string[]];
    out[status] = {
      description: errors.map((e) => `${e.code}: ${sentence(e.when)}`).join(' '),
      ...(status === 429 ? { headers: { 'Retry-After': headerRef('Retry-After') } } : {}),
      content: { 'application/json': { schema: convertSchema(errorWithCodes(codes), { io: 'output' }) } },
    };
  }
  return out;
}

function security(entry: Entry): JsonSchema[] {
  if (entry.auth === 'public') return [];
  if (entry.auth === 'x402') return [{ X402Payment: [] }, { X402PaymentV1: [] }];
  return [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
}

const SOURCE_NOTES: Record<EndpointDef['source'], string | undefined> = {
  spec: undefined,
  'live-service': 'Not shown by the spec; follows the live service.',
  'natural-design': 'The spec names the endpoint but shows neither request nor response; this is trx-rent’s design (its mock answers so).',
};

function priceText(price: NonNullable<EndpointDef['price']>): string {
  const amount = price.kind === 'fixed' ? `${price.usd} USD per call` : `${price.minUsd} to ${price.maxUsd} USD per call, by the work the request causes`;
  return `Price: ${amount}. A call without a valid payment answers 402 with the challenge.`;
}

function operation(entry: Entry, names: Map<z.core.$ZodType, string>): JsonSchema {
  const permission = entry.auth === 'public' || entry.auth === 'account' || entry.auth === 'x402' ? undefined : entry.auth;
  const description = [
    SOURCE_NOTES[entry.source],
    permission ? `API keys need the \`${permission}\` permission.` : undefined,
    entry.price ? priceText(entry.price) : undefined,
    entry.requiresJsonContentType ? 'The body must be sent with `Content-Type: application/json`.' : undefined,
  ].filter(Boolean);
  const responses = { ...successResponses(entry, names.get(entry.response)!), ...errorResponses(entry) };
  const sorted = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
  const params = parameters(entry);
  return {
    operationId: entry.id,
    tags: [tagOf(entry)],
    summary: entry.summary,
    ...(description.length ? { description: description.join(' ') } : {}),
    security: security(entry),
    ...(params.length ? { parameters: params } : {}),
    ...(entry.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(names.get(entry.body)!) } } } } : {}),
    responses: { ...sorted, default: responseRef('Error') },
    ...(permission ? { 'x-permission': permission } : {}),
    ...(entry.rateGroup ? { 'x-rate-limit-group': entry.rateGroup } : {}),
    'x-trx-rent-source': entry.source,
    ...(entry.price
      ? { 'x-x402-price': entry.price.kind === 'fixed' ? { usd: entry.price.usd } : { min_usd: entry.price.minUsd, max_usd: entry.price.maxUsd } }
      : {}),
  };
}

// ---- shared parts ----

const base64Json = (schema: string, description: string): JsonSchema => ({
  description,
  schema: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/json', contentSchema: ref(schema) },
});

function headers(): Record<string, JsonSchema> {
  const integer = (description: string, required = false): JsonSchema => ({ description, required, schema: { type: 'integer', minimum: 0 } });
  return {
    'RateLimit-Limit': integer('Requests allowed per window in this endpoint group.'),
    'RateLimit-Remaining': integer('Requests left in the current window.'),
    'RateLimit-Reset': integer('Seconds until the window resets.'),
    'Retry-After': integer('Seconds to wait before retrying.', true),
    'Idempotent-Replayed': {
      description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key.',
      schema: { type: 'string', enum: ['true'] },
    },
    [HEADERS.PAYMENT_REQUIRED]: { ...base64Json('X402PaymentRequired', 'The x402 v2 challenge, base64 JSON: the same object as the body.'), required: true },
    [HEADERS.PAYMENT_RESPONSE]: base64Json('X402SettlementResponse', 'Why the payment failed, base64 JSON (`success: false`, `errorReason`).'),
    [SETTLED]: {
      ...base64Json('X402SettlementResponse', 'The settlement of the payment, base64 JSON (x402 v2; a v1 payment gets X-PAYMENT-RESPONSE instead).'),
      required: true,
    },
  };
}

function sharedResponses(): Record<string, JsonSchema> {
  return {
    Error: {
      description: 'Any other error (500 INTERNAL_ERROR, 503 MAINTENANCE, …) in the error envelope.',
      content: { 'application/json': { schema: ref('Error') } },
    },
    PaymentRequired: {
      description:
        'Payment required: the x402 challenge; also the answer to a payment header that is malformed or does not verify, with the reason in `error` and in PAYMENT-RESPONSE (the spec: a call without valid payment answers 402).',
      headers: { [HEADERS.PAYMENT_REQUIRED]: headerRef(HEADERS.PAYMENT_REQUIRED), [HEADERS.PAYMENT_RESPONSE]: headerRef(HEADERS.PAYMENT_RESPONSE) },
      content: { 'application/json': { schema: ref('X402PaymentRequired') } },
    },
  };
}

/** Build the OpenAPI 3.1 document of the service (`/api/v1` and `/x402/tron`) from the endpoint table. */
export function buildOpenApiDocument(options: OpenApiDocumentOptions = {}): OpenApiDocument {
  const { schemas, names } = components();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const tags: string[] = [];
  for (const entry of ENDPOINT_LIST) {
    const item = (paths[entry.path] ??= {});
    const method = entry.method.toLowerCase();
    if (item[method]) throw new Error(`OpenAPI: ${entry.method} ${entry.path} is defined twice`);
    item[method] = operation(entry, names);
    if (!tags.includes(tagOf(entry))) tags.push(tagOf(entry));
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'TRON energy rental service (account API and pay-per-call API)',
      version: options.version ?? PACKAGE_VERSION,
      'x-generator': `trx-rent ${options.version ?? PACKAGE_VERSION}`,
      summary: `The service contract trx-rent implements (account API ${SPEC_VERSIONS['account-api']}, x402 API spec ${SPEC_VERSIONS['x402-api']}), generated from its endpoint table.`,
      description: [
        'Two APIs under one base URL. The account API (`/api/v1`) rents TRON energy and bandwidth against a TRX/USDT balance, authenticated by an API key (`X-API-Key`) or a JWT (`Authorization: Bearer`). The pay-per-call API (`/x402/tron`) needs no account: each call is paid through the x402 protocol (USDC on Base, or USDT/USDC/USDD on TRON).',
        'Amounts are in SUN (1 TRX = 1,000,000 SUN) unless a field says otherwise. Errors use the envelope `{ "error": { "code", "message", "details"? } }`. Account-API success bodies are bare, as the spec shows; the live service may wrap them in `{ "data": … }`. Pay-per-call results are always in `{ "data": … }`.',
        'Response objects list their fields; further fields may appear and must be kept by clients. `x-trx-rent-source` says where an operation’s shape comes from: `spec`, `live-service` (not shown by the spec, follows the live service) or `natural-design` (trx-rent’s own, where neither shows it).',
      ].join('\n\n'),
      license: { name: 'MIT', identifier: 'MIT' },
      'x-spec-versions': SPEC_VERSIONS,
    },
    servers: [
      {
        url: '{base_url}',
        description: 'The service, or trx-rent’s mock (`trx-rent mock`).',
        variables: { base_url: { default: options.serverUrl ?? 'http://127.0.0.1:8787', description: 'Origin of the service, no trailing slash.' } },
      },
    ],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `Operations of client.${name.toLowerCase()}.` })),
    paths,
    components: {
      schemas,
      responses: sharedResponses(),
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'The same key with identical parameters within 24 hours returns the original response and creates nothing new; with different parameters, 409 DUPLICATE_REQUEST.',
          schema: { type: 'string', minLength: 1, maxLength: LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH },
        },
      },
      headers: headers(),
      securitySchemes: {
        ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key, prefix `sk_live_`. Keys carry permissions.' },
        BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A web-session JWT.' },
        X402Payment: {
          type: 'apiKey',
          in: 'header',
          name: HEADERS.PAYMENT_SIGNATURE,
          description: 'An x402 v2 payment payload (base64 JSON) signed for one of the offers of the 402 challenge.',
        },
        X402PaymentV1: { type: 'apiKey', in: 'header', name: HEADERS.X_PAYMENT, description: 'An x402 v1 payment payload (base64 JSON).' },
      },
    },
  };
}
