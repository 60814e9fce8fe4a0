// The test node's query service: the few N1QL statements the lab's clients send, answered as
// Couchbase's query service answers them, so that the real clients' parsers and the engine see
// what a real cluster would show them:
//   - the engine: `CREATE PRIMARY INDEX ON b`, `SELECT RAW state FROM system:indexes ...`, and
//     `SELECT COUNT(*) FROM b` with scan_consistency=request_plus (waits for the index, REAL-LAB C11);
//   - YCSB's couchbase2 (0.17.0, Couchbase2Client.java scanAllFields/scanSpecificFields) through
//     Java SDK 2.3.1: `POST /query`, a `PREPARE` first (couchbase.adhoc=false, the default), then
//     `{"prepared": NAME, "args": [...]}`. Its statement quotes `'$1'`, which N1QL reads as the text
//     "$1", not as the first argument: every scan starts at the first key, as on a real cluster.
// Values are string literals, numbers, `$N` and `$name` parameters. Anything else is a syntax
// error (3000), as the real service would refuse what it cannot parse. Scans read the primary
// index, which trails the data (the node feeds it); not_bounded reads what it holds now.
import { randomUUID } from 'node:crypto';

export interface QueryData {
  /** Whether the bucket exists (and is not being deleted). */
  hasBucket(name: string): boolean;
  mayUse(user: string, bucket: string): boolean;
  /** Starts building #primary; false if it exists already. */
  createPrimaryIndex(bucket: string): boolean;
  indexState(bucket: string): 'online' | 'building' | undefined;
  /** The keys the online primary index holds now, sorted; undefined when no index is online. */
  indexedKeys(bucket: string): string[] | undefined;
  /** A document's JSON body, or undefined. */
  document(bucket: string, key: string): unknown;
  /** Resolves true once the index holds every mutation made before `since`, false at `deadline`. */
  indexCaughtUp(bucket: string, since: number, deadline: number): Promise<boolean>;
}

export interface QueryRequest {
  statement?: string;
  prepared?: string;
  args?: unknown[];
  named: Record<string, unknown>;
  scanConsistency?: string;
  clientContextId?: string;
  timeoutMs?: number;
}

export interface QueryAnswer {
  httpStatus: number;
  body: string;
}

interface QueryError {
  code: number;
  msg: string;
}

class QueryFailure extends Error {
  constructor(
    readonly httpStatus: number,
    readonly error: QueryError,
  ) {
    super(error.msg);
  }
}

type Value =
  { kind: 'literal'; value: unknown } | { kind: 'positional'; index: number } | { kind: 'named'; name: string };

type Parsed =
  | { kind: 'prepare'; name?: string; inner: string }
  | { kind: 'createPrimary'; keyspace: string }
  | { kind: 'indexState'; keyspace: string }
  | { kind: 'count'; keyspace: string; raw: boolean }
  | { kind: 'scan'; keyspace: string; raw: boolean; fields: string[]; from: Value; limit: Value; ordered: boolean };

const keyspacePattern = '((?:default:)?(?:`[^`]+`|[A-Za-z0-9_.%-]+))';
const valuePattern = `('(?:[^']|'')*'|"(?:[^"\\\\]|\\\\.)*"|-?\\d+|\\$\\d+|\\$[A-Za-z_][A-Za-z0-9_]*)`;

function keyspaceName(raw: string): string {
  return raw.replace(/^default:/, '').replace(/^`|`$/g, '');
}

function parseValue(text: string): Value {
  if (text.startsWith("'")) return { kind: 'literal', value: text.slice(1, -1).replace(/''/g, "'") };
  if (text.startsWith('"')) return { kind: 'literal', value: JSON.parse(text) as string };
  if (/^\$\d+$/.test(text)) return { kind: 'positional', index: Number(text.slice(1)) };
  if (text.startsWith('$')) return { kind: 'named', name: text.slice(1) };
  return { kind: 'literal', value: Number(text) };
}

/** The statement's shape, or a 3000 syntax error. */
export function parseStatement(statement: string): Parsed {
  const text = statement.trim().replace(/;$/, '').replace(/\s+/g, ' ');
  const prepare = /^PREPARE (?:(`[^`]+`|[A-Za-z0-9_-]+) (?:FROM|AS) )?(.+)$/i.exec(text);
  if (prepare)
    return { kind: 'prepare', ...(prepare[1] ? { name: prepare[1].replace(/^`|`$/g, '') } : {}), inner: prepare[2] };
  const create = new RegExp(
    `^CREATE PRIMARY INDEX(?: \`?#primary\`?)? ON ${keyspacePattern}(?: USING GSI)?$`,
    'i',
  ).exec(text);
  if (create) return { kind: 'createPrimary', keyspace: keyspaceName(create[1]) };
  const state = /^SELECT RAW state FROM system:indexes WHERE keyspace_id = "([^"]+)" AND is_primary = true$/i.exec(
    text,
  );
  if (state) return { kind: 'indexState', keyspace: state[1] };
  const count = new RegExp(`^SELECT (RAW )?COUNT\\(\\*\\) FROM ${keyspacePattern}$`, 'i').exec(text);
  if (count) return { kind: 'count', keyspace: keyspaceName(count[2]), raw: count[1] !== undefined };
  const scan = new RegExp(
    `^SELECT (RAW meta\\(\\)\\.id|[A-Za-z0-9_*]+(?: ?, ?[A-Za-z0-9_]+)*) FROM ${keyspacePattern} WHERE meta\\(\\)\\.id >= ${valuePattern}( ORDER BY meta\\(\\)\\.id)? LIMIT ${valuePattern}$`,
    'i',
  ).exec(text);
  if (scan) {
    const raw = /^RAW /i.test(scan[1]);
    return {
      kind: 'scan',
      keyspace: keyspaceName(scan[2]),
      raw,
      fields: raw ? [] : scan[1].split(',').map((field) => field.trim()),
      from: parseValue(scan[3]),
      limit: parseValue(scan[5]),
      ordered: scan[4] !== undefined,
    };
  }
  throw new QueryFailure(400, {
    code: 3000,
    msg: `syntax error - at ${text.split(' ')[0] ?? ''} (test node: statement not known: ${text.slice(0, 100)})`,
  });
}

function resolve(value: Value, request: QueryRequest): unknown {
  if (value.kind === 'literal') return value.value;
  if (value.kind === 'positional') {
    const args = request.args ?? [];
    if (value.index < 1 || value.index > args.length)
      throw new QueryFailure(400, {
        code: 5010,
        msg: `Error evaluating filter - cause: No value for positional parameter $${value.index}.`,
      });
    return args[value.index - 1];
  }
  if (!(value.name in request.named))
    throw new QueryFailure(400, {
      code: 5010,
      msg: `Error evaluating filter - cause: No value for named parameter $${value.name}.`,
    });
  return request.named[value.name];
}

/** The body in the query service's field order, which Java SDK 2.x's streaming parser expects. */
function body(
  request: QueryRequest,
  fields: { signature?: unknown; results?: unknown[]; errors?: QueryError[]; status: string; started: number },
): string {
  const parts = [`"requestID": ${JSON.stringify(randomUUID())}`];
  if (request.clientContextId !== undefined)
    parts.push(`"clientContextID": ${JSON.stringify(request.clientContextId)}`);
  if (fields.signature !== undefined) parts.push(`"signature": ${JSON.stringify(fields.signature)}`);
  if (fields.results !== undefined)
    parts.push(`"results": [${fields.results.map((row) => JSON.stringify(row)).join(',')}]`);
  if (fields.errors !== undefined) parts.push(`"errors": ${JSON.stringify(fields.errors)}`);
  parts.push(`"status": ${JSON.stringify(fields.status)}`);
  const elapsed = `${Math.max(0, Date.now() - fields.started)}ms`;
  parts.push(
    `"metrics": ${JSON.stringify({ elapsedTime: elapsed, executionTime: elapsed, resultCount: fields.results?.length ?? 0, resultSize: JSON.stringify(fields.results ?? []).length, ...(fields.errors ? { errorCount: fields.errors.length } : {}) })}`,
  );
  return `{\n${parts.join(',\n')}\n}\n`;
}

export class QueryService {
  private readonly prepared = new Map<string, string>();

  constructor(private readonly data: QueryData) {}

  async answer(user: string, request: QueryRequest): Promise<QueryAnswer> {
    const started = Date.now();
    try {
      let statement = request.statement;
      if (statement === undefined && request.prepared !== undefined) {
        statement = this.prepared.get(request.prepared);
        if (statement === undefined)
          throw new QueryFailure(404, { code: 4040, msg: `No such prepared statement: ${request.prepared}` });
      }
      if (statement === undefined) throw new QueryFailure(400, { code: 1050, msg: 'No statement or prepared value' });
      const outcome = await this.run(user, parseStatement(statement), request);
      return { httpStatus: 200, body: body(request, { ...outcome, status: 'success', started }) };
    } catch (error) {
      if (!(error instanceof QueryFailure)) throw error;
      return {
        httpStatus: error.httpStatus,
        body: body(request, { errors: [error.error], status: error.httpStatus >= 500 ? 'errors' : 'fatal', started }),
      };
    }
  }

  private bucket(user: string, name: string, what: string): void {
    if (!this.data.hasBucket(name))
      throw new QueryFailure(500, { code: 12003, msg: `Keyspace not found in CB datastore: default:${name}` });
    if (!this.data.mayUse(user, name))
      throw new QueryFailure(401, {
        code: 13014,
        msg: `User does not have credentials to ${what} on default:${name}.`,
      });
  }

  private async run(
    user: string,
    parsed: Parsed,
    request: QueryRequest,
  ): Promise<{ signature?: unknown; results: unknown[] }> {
    switch (parsed.kind) {
      case 'prepare': {
        const inner = parseStatement(parsed.inner); // refuse what could not run
        if (inner.kind === 'prepare') throw new QueryFailure(400, { code: 3000, msg: 'syntax error - at PREPARE' });
        const name = parsed.name ?? randomUUID();
        this.prepared.set(name, parsed.inner);
        return {
          signature: { '*': '*' },
          results: [
            {
              name,
              text: `PREPARE ${parsed.inner}`,
              namespace: 'default',
              indexApiVersion: 4,
              featuresControl: 76,
              signature: inner.kind === 'scan' && inner.raw ? 'json' : { '*': '*' },
            },
          ],
        };
      }
      case 'createPrimary':
        this.bucket(user, parsed.keyspace, 'run index operations');
        if (!this.data.createPrimaryIndex(parsed.keyspace))
          throw new QueryFailure(500, { code: 4300, msg: 'The index #primary already exists.' });
        return { results: [] };
      case 'indexState': {
        const state = this.data.indexState(parsed.keyspace);
        return { signature: 'json', results: state === undefined ? [] : [state] };
      }
      case 'count':
      case 'scan': {
        this.bucket(user, parsed.keyspace, 'run SELECT queries');
        if (this.data.indexState(parsed.keyspace) !== 'online') {
          throw new QueryFailure(500, {
            code: 4000,
            msg: `No index available on keyspace \`default\`:\`${parsed.keyspace}\` that matches your query. Use CREATE PRIMARY INDEX ON \`default\`:\`${parsed.keyspace}\` to create a primary index, or check that your expected index is online.`,
          });
        }
        if (request.scanConsistency === 'request_plus') {
          const deadline = Date.now() + Math.min(request.timeoutMs ?? 75_000, 75_000);
          if (!(await this.data.indexCaughtUp(parsed.keyspace, Date.now(), deadline)))
            throw new QueryFailure(500, {
              code: 1080,
              msg: 'Timeout - cause: index scan did not catch up (request_plus)',
            });
        }
        const keys = this.data.indexedKeys(parsed.keyspace) ?? [];
        if (parsed.kind === 'count')
          return parsed.raw
            ? { signature: 'number', results: [keys.length] }
            : { signature: { $1: 'number' }, results: [{ $1: keys.length }] };
        const from = resolve(parsed.from, request);
        const limit = Number(resolve(parsed.limit, request));
        // N1QL compares values of different types by type order; a key is a string
        const chosen = keys
          .filter((key) => typeof from === 'string' && key >= from)
          .slice(0, Number.isFinite(limit) ? Math.max(0, limit) : 0);
        if (parsed.raw) return { signature: 'json', results: chosen };
        const rows = chosen.map((key) => {
          const document = this.data.document(parsed.keyspace, key);
          if (parsed.fields.includes('*')) return { [parsed.keyspace]: document };
          const row: Record<string, unknown> = {};
          for (const field of parsed.fields) {
            const value = (document as Record<string, unknown> | undefined)?.[field];
            if (value !== undefined) row[field] = value;
          }
          return row;
        });
        return {
          signature: parsed.fields.includes('*')
            ? { '*': '*' }
            : Object.fromEntries(parsed.fields.map((field) => [field, 'json'])),
          results: rows,
        };
      }
    }
  }
}

/** The request a query POST carries: a JSON body or a form (the engine sends a form). */
export function queryRequestFrom(raw: string, contentType: string): QueryRequest {
  let fields: Record<string, unknown>;
  if (contentType.includes('json')) {
    fields = JSON.parse(raw) as Record<string, unknown>;
  } else {
    fields = {};
    for (const [key, value] of new URLSearchParams(raw)) {
      fields[key] = key === 'args' || key.startsWith('$') ? (JSON.parse(value) as unknown) : value;
    }
  }
  const named: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (key.startsWith('$')) named[key.slice(1)] = value;
  const timeout = typeof fields.timeout === 'string' ? /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(fields.timeout) : null;
  return {
    ...(typeof fields.statement === 'string' ? { statement: fields.statement } : {}),
    ...(typeof fields.prepared === 'string' ? { prepared: fields.prepared } : {}),
    ...(Array.isArray(fields.args) ? { args: fields.args as unknown[] } : {}),
    named,
    ...(typeof fields.scan_consistency === 'string' ? { scanConsistency: fields.scan_consistency } : {}),
    ...(typeof fields.client_context_id === 'string' ? { clientContextId: fields.client_context_id } : {}),
    ...(timeout
      ? { timeoutMs: Number(timeout[1]) * (timeout[2] === 'ms' ? 1 : timeout[2] === 's' ? 1000 : 60_000) }
      : {}),
  };
}
