// Loading and checking a plan: JSON parse errors and schema errors (ajv, against
// schemas/benchplan.schema.json) come back as values with the JSON path and the line/column of
// the offending value, so the editor can underline it and the CLI can print `file:line:col`.
// Pure except `loadPlan`, which reads the file.
import { readLocalFile } from './localFiles';
import { dirname, isAbsolute, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import {
  findNodeAtLocation,
  parseTree,
  printParseErrorCode,
  type Node as JsonNode,
  type ParseError,
} from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';
import planSchema from '../../../schemas/benchplan.schema.json';
import type { Plan } from './planSchema';
import { expandValues } from './cells';
import { clusterSizeProblems } from './clusterSizes';

export interface PlanError {
  /** Stable: `json-syntax`, `schema`, `plan-semantics`, `file-missing`, `read`. */
  code: string;
  /** Worded for a user, starting with the location, e.g. `servers[0].restPort: must be <= 65535`. */
  message: string;
  /** JSON path of the value, e.g. `servers[0].restPort` (empty for the whole document). */
  path: string;
  /** 1-based line and column of the value's start. */
  line: number;
  column: number;
  /** 0-based offset and length of the value in the file text. */
  offset: number;
  length: number;
}

let validator: ValidateFunction | undefined;
function schemaValidator(): ValidateFunction {
  validator ??= new Ajv({ allErrors: true, strict: false }).compile(planSchema);
  return validator;
}

export async function loadPlan(path: string): Promise<{ plan: Plan; errors: PlanError[] }> {
  const read = await readLocalFile(path);
  if (!read.ok)
    return {
      plan: {} as Plan,
      errors: [
        {
          code: 'read',
          message: `cannot read the plan: ${path}: ${read.problem}`,
          path: '',
          line: 1,
          column: 1,
          offset: 0,
          length: 0,
        },
      ],
    };
  return checkPlanText(read.text, dirname(path));
}

/**
 * Parses and checks plan text. `baseDir` (the plan's folder) resolves the workload and profile
 * paths; pass undefined to skip the file-existence checks.
 */
export function checkPlanText(text: string, baseDir?: string): { plan: Plan; errors: PlanError[] } {
  const parseErrors: ParseError[] = [];
  const root = parseTree(text, parseErrors, { allowTrailingComma: false, disallowComments: true });
  const lines = TextDocument.create('plan.json', 'json', 0, text);
  /** 1-based line and column, as editors and compilers print them. */
  const at = (offset: number) => {
    const position = lines.positionAt(offset);
    return { line: position.line + 1, column: position.character + 1 };
  };
  if (parseErrors.length > 0 || root === undefined) {
    const errors = parseErrors.map((error) => {
      const { line, column } = at(error.offset);
      return {
        code: 'json-syntax',
        message: `JSON syntax: ${describeParseError(printParseErrorCode(error.error))}`,
        path: '',
        line,
        column,
        offset: error.offset,
        length: error.length,
      };
    });
    if (errors.length === 0)
      errors.push({
        code: 'json-syntax',
        message: 'JSON syntax: the file is empty',
        path: '',
        line: 1,
        column: 1,
        offset: 0,
        length: 0,
      });
    return { plan: {} as Plan, errors };
  }
  const plan = JSON.parse(text) as Plan;
  const locate = (segments: (string | number)[], message: string, code: string, onKey = false): PlanError => {
    const node = nearestNode(root, segments);
    const target =
      onKey && node.parent?.type === 'property' && node.parent.children?.[0] ? node.parent.children[0] : node;
    const { line, column } = at(target.offset);
    const path = formatPath(segments);
    return {
      code,
      message: path ? `${path}: ${message}` : message,
      path,
      line,
      column,
      offset: target.offset,
      length: target.length,
    };
  };

  const validate = schemaValidator();
  const errors: PlanError[] = [];
  if (!validate(plan)) {
    for (const error of friendlyErrors(validate.errors ?? [])) {
      errors.push(locate(error.segments, error.message, 'schema', error.onKey));
    }
    return { plan, errors: dedupe(errors) };
  }
  errors.push(...semanticErrors(plan, baseDir).map((error) => locate(error.segments, error.message, error.code)));
  return { plan, errors };
}

/** Checks the schema cannot express: unique names, non-empty ranges, files that exist. */
function semanticErrors(
  plan: Plan,
  baseDir: string | undefined,
): { segments: (string | number)[]; message: string; code: string }[] {
  const found: { segments: (string | number)[]; message: string; code: string }[] = [];
  const seen = new Set<string>();
  plan.stacks.forEach((stack, index) => {
    const name = stack === 'kernel' ? 'kernel' : stack.name;
    if (seen.has(name))
      found.push({ segments: ['stacks', index], message: `the stack "${name}" appears twice`, code: 'plan-semantics' });
    seen.add(name);
  });
  const hosts = new Set<string>();
  plan.clients.forEach((client, index) => {
    if (hosts.has(client.host))
      found.push({
        segments: ['clients', index, 'host'],
        message: `the client host "${client.host}" appears twice`,
        code: 'plan-semantics',
      });
    hosts.add(client.host);
  });
  if (plan.threads !== undefined && expandValues(plan.threads).length === 0) {
    found.push({
      segments: ['threads'],
      message: 'the range gives no thread counts (is "from" above "to"?)',
      code: 'plan-semantics',
    });
  }
  for (const [axis, values] of Object.entries(plan.axes ?? {})) {
    if (expandValues(values).length === 0)
      found.push({
        segments: ['axes', axis],
        message: 'the range gives no values (is "from" above "to"?)',
        code: 'plan-semantics',
      });
  }
  for (const problem of clusterSizeProblems(plan)) found.push({ ...problem, code: 'plan-semantics' });
  if (baseDir !== undefined) {
    const mustExist = (relative: string, segments: (string | number)[], what: string): void => {
      const full = isAbsolute(relative) ? relative : resolve(baseDir, relative);
      if (!existsSync(full)) found.push({ segments, message: `${what} not found: ${full}`, code: 'file-missing' });
    };
    mustExist(plan.workload.path, ['workload', 'path'], 'workload file');
    plan.stacks.forEach((stack, index) => {
      if (stack !== 'kernel') mustExist(stack.profile, ['stacks', index, 'profile'], 'Onload profile');
    });
    plan.clients.forEach((client, index) => {
      if (typeof client.runUnderOnload === 'string')
        mustExist(client.runUnderOnload, ['clients', index, 'runUnderOnload'], 'Onload profile');
    });
  }
  return found;
}

interface FriendlyError {
  segments: (string | number)[];
  message: string;
  onKey: boolean;
}

/** Rewords ajv's errors and drops the if/then/else bookkeeping ones. */
function friendlyErrors(errors: ErrorObject[]): FriendlyError[] {
  const out: FriendlyError[] = [];
  for (const error of errors) {
    const segments = pointerSegments(error.instancePath);
    const params = error.params as Record<string, unknown>;
    switch (error.keyword) {
      case 'if':
        break;
      case 'additionalProperties':
        out.push({
          segments: [...segments, String(params.additionalProperty)],
          message: `unknown setting "${String(params.additionalProperty)}"`,
          onKey: true,
        });
        break;
      case 'required':
        out.push({ segments, message: `missing required setting "${String(params.missingProperty)}"`, onKey: false });
        break;
      case 'enum':
        out.push({
          segments,
          message: `must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`,
          onKey: false,
        });
        break;
      case 'const':
        out.push({ segments, message: `must be ${JSON.stringify(params.allowedValue)}`, onKey: false });
        break;
      case 'type':
        out.push({ segments, message: `must be ${String(params.type).replace(',', ' or ')}`, onKey: false });
        break;
      case 'not':
        out.push({
          segments,
          message:
            segments[segments.length - 1] === 'host'
              ? 'an SSH destination must not start with "-"'
              : 'this value is not allowed here',
          onKey: false,
        });
        break;
      case 'minItems':
        out.push({
          segments,
          message: `must list at least ${String(params.limit)} value${params.limit === 1 ? '' : 's'}`,
          onKey: false,
        });
        break;
      case 'uniqueItems':
        out.push({
          segments: [...segments, Math.max(Number(params.i), Number(params.j))],
          message: `repeats the value of item ${Math.min(Number(params.i), Number(params.j))}`,
          onKey: false,
        });
        break;
      case 'propertyNames':
        break; // reported by the nested error on the name itself
      case 'pattern':
        if (error.propertyName !== undefined) {
          out.push({
            segments: [...segments, error.propertyName],
            message: `the name "${error.propertyName}" is not allowed (letters, digits, ".", "_" and "-" only)`,
            onKey: true,
          });
        } else {
          out.push({
            segments,
            message: `contains characters that are not allowed (must match ${String(params.pattern)})`,
            onKey: false,
          });
        }
        break;
      default:
        out.push({ segments, message: error.message ?? 'is not valid', onKey: false });
    }
  }
  return out;
}

function dedupe(errors: PlanError[]): PlanError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = `${error.offset}:${error.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

/** `servers[0].host`, `axes["my.prop"]`. */
function formatPath(segments: (string | number)[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** The node at the path, or the deepest ancestor that exists (a missing key points at its object). */
function nearestNode(root: JsonNode, segments: (string | number)[]): JsonNode {
  for (let length = segments.length; length >= 0; length--) {
    const node = findNodeAtLocation(root, segments.slice(0, length));
    if (node) return node;
  }
  return root;
}

function describeParseError(code: string): string {
  const words: Record<string, string> = {
    InvalidSymbol: 'unexpected character',
    InvalidNumberFormat: 'invalid number',
    PropertyNameExpected: 'a property name in double quotes is expected',
    ValueExpected: 'a value is expected',
    ColonExpected: '":" is expected',
    CommaExpected: '"," is expected',
    CloseBraceExpected: '"}" is expected',
    CloseBracketExpected: '"]" is expected',
    EndOfFileExpected: 'nothing may follow the top-level value',
    InvalidCommentToken: 'comments are not allowed in a plan',
    UnexpectedEndOfComment: 'unterminated comment',
    UnexpectedEndOfString: 'unterminated string',
    UnexpectedEndOfNumber: 'unterminated number',
    InvalidUnicode: 'invalid unicode escape',
    InvalidEscapeCharacter: 'invalid escape character',
    InvalidCharacter: 'invalid character in a string',
  };
  return words[code] ?? code;
}
