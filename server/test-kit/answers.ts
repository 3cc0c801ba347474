/** What tests read from an answer of the test gateway. */
import type { TestResponse } from './gateway';

/** The names of an answer's `result.parameterErrors`, sorted: what a refusal's tests compare. */
export const parameterErrorNames = (res: TestResponse): string[] =>
  (res.body?.result?.parameterErrors ?? []).map((e: { name: string }) => e.name).sort();
