/**
 * What a tool is: a name, a description that states units and minimums, an input schema (a
 * request schema of `src/schemas`, strict), an output schema (built from the response schemas,
 * an object as MCP's structured content must be), what it may do with money, and a `run` on
 * the session's SDK clients. JSON Schemas for `tools/list` are generated from the same zod
 * schemas; the arguments are checked with the SDK's own `validateRequest`, so a bad argument is
 * the same ValidationError (code, field) the SDK gives.
 * @module
 */
import * as z from 'zod';
import type { ZodMiniType } from 'zod/mini';
import type { Access, Confirmer } from './spend.js';
import type { Session } from './session.js';

/** What a running tool gets besides its arguments. */
export interface ToolContext {
  readonly session: Session;
  /** Aborted when the client cancels the call or the connection closes. */
  readonly signal: AbortSignal;
  /** Asks the user (elicitation); undefined when the client cannot. */
  readonly ask: Confirmer;
  /** A progress notification, when the client asked for them (no-op otherwise). */
  progress(progress: number, total?: number, message?: string): Promise<void>;
}

export interface Tool<I extends ZodMiniType = ZodMiniType, O extends ZodMiniType = ZodMiniType> {
  name: string;
  title: string;
  /** What it does, with units (SUN vs TRX), minimums, and whether it spends. */
  description: string;
  access: Access;
  input: I;
  /** An object schema: the structured content. */
  output: O;
  /** Descriptions of input properties, added to the generated JSON Schema. */
  fields?: Record<string, string>;
  run(args: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
}

/** Typed tool definition (inference for `run`'s arguments). */
export function tool<I extends ZodMiniType, O extends ZodMiniType>(def: Tool<I, O>): Tool {
  return def as unknown as Tool;
}

/** An empty, strict input: a tool without arguments still rejects unknown ones. */
export const NoInput = z.strictObject({});

type JsonSchema = Record<string, unknown> & { properties?: Record<string, Record<string, unknown>> };

function jsonSchema(schema: ZodMiniType, io: 'input' | 'output'): JsonSchema {
  // draft-07 is what the SDK's own (ajv) validators compile; transforms (numbers the live
  // service sends as strings) are unrepresentable in output mode and become `{}`.
  const json = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** The tool as `tools/list` shows it. */
export function listing(t: Tool): Record<string, unknown> {
  const inputSchema = jsonSchema(t.input, 'input');
  for (const [name, description] of Object.entries(t.fields ?? {})) {
    const property = inputSchema.properties?.[name];
    if (property) property.description = description;
  }
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema,
    outputSchema: jsonSchema(t.output, 'output'),
    annotations: {
      title: t.title,
      readOnlyHint: t.access === 'read',
      destructiveHint: t.access === 'spend',
      idempotentHint: t.access === 'read',
      openWorldHint: true,
    },
  };
}
