/**
 * The contract's registry: every schema the OpenAPI document names (components/schemas) is added
 * here under its name, so the document derives its answer schemas from this one list
 * (`z.toJSONSchema(CONTRACT, …)`) and a schema that is not named is inlined where it is used.
 */
import * as z from 'zod';

export const CONTRACT = z.registry<{ readonly id: string }>();

/** Adds a schema to the contract under its component name and returns it. */
export function named<S extends z.ZodType>(id: string, schema: S): S {
  CONTRACT.add(schema, { id });
  return schema;
}

/**
 * What an answer holds where the contract names no field (an echoed request group, a processor's
 * extra result): the family's rule is that every leaf of an answer is text (a Y/N flag, an
 * amount "92.00", never a JSON boolean or number), in lists and objects to any depth.
 */
export type AnswerTree = string | readonly AnswerTree[] | { readonly [name: string]: AnswerTree };

export const answerTree: z.ZodType<AnswerTree> = named(
  'AnswerTree',
  z
    .lazy(() => z.union([z.string(), z.array(answerTree), z.record(z.string(), answerTree)]))
    .describe('An echoed value: text, or a list or group of them (every leaf of an answer is text).'),
);

/** An object of the answer: the fields it names, and whatever else was echoed, as text. */
export const group = <Shape extends z.ZodRawShape>(shape: Shape) => z.object(shape).catchall(answerTree);

/** A group the contract says nothing more of than that it is text all the way down. */
export const echoedGroup = () => z.record(z.string(), answerTree);

export const text = () => z.string();
export const optionalText = () => z.string().optional();

/** The schema the contract names `id` (a component of the document), if any. */
export const schemaNamed = (id: string): z.ZodType | undefined =>
  CONTRACT._idmap.get(id) as z.ZodType | undefined;

/**
 * The request bodies the document names (the admin API's JSON inputs), beside the answers: a
 * registry of their own, turned into JSON Schema as what a client may send (`io: 'input'`: a
 * field with a default or a transform is what is given, not what the parse makes of it), each
 * under its name in admin-inputs.ts's ADMIN_INPUTS.
 */
export const INPUT_CONTRACT = z.registry<{ readonly id: string }>();
