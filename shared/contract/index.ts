/**
 * The answers that cross the wire, written once as zod schemas with their TypeScript types: the
 * engine builds them (shared/engine/answers), the OpenAPI document derives its answer schemas
 * from them (json-schema.ts), the widget and the dashboard import their types (`import type`).
 */
export * from './admin';
export * from './admin-inputs';
export * from './admin-queries';
export * from './admin-views';
export * from './checkout';
export * from './dashboard';
export * from './envelope';
export * from './notification';
export * from './payment';
export * from './reads';
export * from './records';
export * from './registration';
export { type AnswerTree, schemaNamed } from './registry';
export * from './schedule';
