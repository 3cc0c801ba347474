/**
 * The documentation files as the docs tests read them: README.md and every guide in docs/, their
 * links (through marked's lexer, so a link inside a code span is not one) and their ```sh blocks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import GithubSlugger from 'github-slugger';
import { marked, type Token, type Tokens } from 'marked';

export const REPO = new URL('../../', import.meta.url).pathname;

/** README.md and docs/*.md, as repository paths. */
export const DOC_FILES: readonly string[] = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

export const readDoc = (path: string): string => readFileSync(join(REPO, path), 'utf8');

function walk(tokens: readonly Token[], visit: (token: Token) => void): void {
  for (const token of tokens) {
    visit(token);
    const nested = token as {
      tokens?: Token[];
      items?: Token[];
      rows?: Tokens.TableCell[][];
      header?: Tokens.TableCell[];
    };
    if (nested.tokens) walk(nested.tokens, visit);
    if (nested.items) walk(nested.items, visit);
    if (nested.header) for (const cell of nested.header) walk(cell.tokens, visit);
    if (nested.rows) for (const row of nested.rows) for (const cell of row) walk(cell.tokens, visit);
  }
}

/** Every link and image target of a Markdown text. */
export function linksOf(markdown: string): string[] {
  const links: string[] = [];
  walk(marked.lexer(markdown), (token) => {
    if (token.type === 'link' || token.type === 'image') links.push((token as Tokens.Link).href);
  });
  return links;
}

/** The relative paths a Markdown text names in code spans (`../shared/spec/`): files it points a reader at. */
export function codePathsOf(markdown: string): string[] {
  const paths: string[] = [];
  walk(marked.lexer(markdown), (token) => {
    const text = (token as Tokens.Codespan).text;
    if (token.type === 'codespan' && /^\.{1,2}\//.test(text)) paths.push(text);
  });
  return paths;
}

/** The anchors GitHub gives a Markdown text's headings. */
export function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  walk(marked.lexer(markdown), (token) => {
    if (token.type === 'heading') anchors.add(slugger.slug((token as Tokens.Heading).text.replace(/`/g, '')));
  });
  return anchors;
}

export interface ShellExample {
  readonly file: string;
  /** The block's first line number in its file, to name it. */
  readonly line: number;
  readonly script: string;
}

/** Every ```sh block of the docs, in file order. */
export function shellExamples(): ShellExample[] {
  const examples: ShellExample[] = [];
  for (const file of DOC_FILES) {
    const text = readDoc(file);
    let offset = 0;
    for (const token of marked.lexer(text)) {
      const at = text.indexOf(token.raw, offset);
      if (at !== -1) offset = at + token.raw.length;
      if (token.type === 'code' && (token as Tokens.Code).lang === 'sh') {
        const line = text.slice(0, at).split('\n').length;
        examples.push({ file, line, script: (token as Tokens.Code).text });
      }
    }
  }
  return examples;
}

const RESULT_CODE = /\b\d{3}\.\d{3}\.\d{3}\b/g;

/** The result codes the block's comments promise, in order. */
export const promisedCodes = (script: string): string[] =>
  script
    .split('\n')
    .filter((line) => line.trimStart().startsWith('#'))
    .flatMap((line) => line.match(RESULT_CODE) ?? []);
