import { TRPCError, type AnyTRPCProcedure } from '@trpc/server';
import { z } from 'zod';
import { headersOf, streamOf, type AnswerHeaders, type StreamedBody } from './answer-headers.js';
import { guardOf, type Context, type Guard, type Meta } from './trpc.js';

/**
 * A procedure's own middleware list, read once and run without tRPC's chain.
 *
 * tRPC runs a procedure as a chain of middlewares (our guards, then the input parser, the
 * output parser and the resolver), copying its options object at every step; for a cheap
 * read that is most of the cost of the call. The REST edge therefore runs the same list
 * itself. The plan is derived from `procedure._def.middlewares` (the list tRPC runs), and
 * building it throws for any middleware it does not know, so the two paths cannot diverge:
 * a middleware added to the procedure builder either is a guard (and runs here too) or
 * stops the server at startup.
 */
export interface ProcedurePlan {
  /** The guards that run before the input is read, in the procedure's order (auth, scopes). */
  authorize(ctx: Context): Context;
  /** The rest of the list: input parser, guards after it, resolver, output parser. */
  run(ctx: Context, rawInput: unknown): Promise<PlanResult>;
  /** The top-level fields of the input object (path, query and body fields alike); none without an input. */
  inputFields: string[];
  /** The fields of `inputFields` the input cannot do without (neither optional nor defaulted). */
  requiredInputFields: string[];
}

/** What a procedure answered: the output (as internal callers get it) and what it returned beside it. */
export interface PlanResult {
  output: unknown;
  /** The headers the resolver returned with its body (`withHeaders`). */
  headers: AnswerHeaders | undefined;
  /** The body to stream instead of the output (`streamed`). */
  stream: StreamedBody | undefined;
}

type Step =
  | { kind: 'guard'; guard: Guard }
  | { kind: 'input'; schema: z.ZodType }
  | { kind: 'output'; schema: z.ZodType };

interface ProcedureDef {
  middlewares: Array<{ _type?: string; name?: string }>;
  inputs: unknown[];
  output?: unknown;
  resolver?: (opts: { ctx: Context; input: unknown }) => unknown;
  meta?: Meta;
}

export function planProcedure(path: string, procedure: AnyTRPCProcedure): ProcedurePlan {
  const def = procedure._def as unknown as ProcedureDef;
  const { resolver, meta } = def;
  if (!resolver) throw new Error(`${path}: a procedure without a resolver cannot be served.`);
  if (def.inputs.length > 1) throw new Error(`${path}: one .input() per procedure (tRPC would merge several).`);
  const middlewares = def.middlewares;
  const last = middlewares[middlewares.length - 1];
  if (last?.name !== 'resolveMiddleware') throw new Error(`${path}: the resolver must be the last middleware.`);

  const steps: Step[] = middlewares.slice(0, -1).map((middleware) => {
    if (middleware._type === 'input') return { kind: 'input', schema: def.inputs[0] as z.ZodType };
    if (middleware._type === 'output') return { kind: 'output', schema: def.output as z.ZodType };
    const guard = guardOf(middleware);
    if (guard) return { kind: 'guard', guard };
    throw new Error(
      `${path}: middleware "${middleware.name || 'anonymous'}" is not a guard; define it with guardMiddleware in core/trpc.ts so every transport runs it.`,
    );
  });
  const firstInput = steps.findIndex((step) => step.kind !== 'guard');
  const before = (firstInput === -1 ? steps : steps.slice(0, firstInput)) as Array<Extract<Step, { kind: 'guard' }>>;
  const after = firstInput === -1 ? [] : steps.slice(firstInput);
  const output = after.find((step): step is Extract<Step, { kind: 'output' }> => step.kind === 'output');

  const inputStep = after.find((step): step is Extract<Step, { kind: 'input' }> => step.kind === 'input');

  const shape = inputStep ? shapeOf(inputStep.schema) : {};
  return {
    inputFields: Object.keys(shape),
    requiredInputFields: Object.keys(shape).filter((field) => shape[field]!._zod.optin !== 'optional'),
    authorize(ctx) {
      let current = ctx;
      for (const step of before) current = step.guard({ ctx: current, meta });
      return current;
    },
    async run(ctx, rawInput) {
      let current = ctx;
      let input: unknown = undefined;
      for (const step of after) {
        if (step.kind === 'guard') current = step.guard({ ctx: current, meta });
        else if (step.kind === 'input') {
          const parsing = parse(step.schema, rawInput);
          const parsed = parsing instanceof Promise ? await parsing : parsing;
          if (!parsed.success) throw new TRPCError({ code: 'BAD_REQUEST', cause: parsed.error });
          input = parsed.data;
        }
      }
      const result = await resolver({ ctx: current, input });
      const headers = headersOf(result);
      const stream = streamOf(result);
      if (!output) return { output: result, headers, stream };
      const parsing = parse(output.schema, result);
      const parsed = parsing instanceof Promise ? await parsing : parsing;
      if (!parsed.success) {
        throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed', cause: parsed.error });
      }
      return { output: parsed.data, headers, stream };
    },
  };
}

/**
 * zod's synchronous parse, which takes its compiled fast path for objects (the asynchronous
 * one never does) and, awaited only when it is a Promise, needs no extra turn of the
 * microtask queue; a schema with an
 * asynchronous refinement or transform makes it throw $ZodAsyncError, and is then parsed
 * asynchronously, from the start, as before. The outcome is the same either way.
 */
function parse(schema: z.ZodType, value: unknown): ReturnType<z.ZodType['safeParse']> | Promise<ReturnType<z.ZodType['safeParse']>> {
  try {
    return schema.safeParse(value);
  } catch (error) {
    if (error instanceof z.core.$ZodAsyncError) return schema.safeParseAsync(value);
    throw error;
  }
}

type Shape = Record<string, z.ZodType>;

/** The fields of an object schema, also behind refinements and pipes (zod 4 keeps the shape on the def). */
function shapeOf(schema: z.ZodType): Shape {
  const def = (schema as unknown as { _zod: { def: { shape?: Shape; in?: z.ZodType; innerType?: z.ZodType } } })._zod.def;
  if (def.shape) return def.shape;
  if (def.in) return shapeOf(def.in);
  if (def.innerType) return shapeOf(def.innerType);
  return {};
}
