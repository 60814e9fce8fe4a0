// A line of results.jsonl or a manifest is checked before any view uses it, because one crafted
// value took every view down: an axis value `{"toString":1}` throws "Cannot convert object to
// primitive value" wherever it is printed, a 5,000-deep value overflows the stack of the report,
// the comparison and JSON.stringify (the panel's "Cell record"). So, on the parsed value:
//   - nesting is bounded (`maxNesting` levels, counted without recursion);
//   - no object anywhere has its own `toString` or `valueOf` (data from JSON never needs them,
//     and they are what turns printing into an exception);
//   - the fields the views compute with have the types of model.ts (a JSON schema, checked by ajv);
//     fields this version does not know are allowed, for newer writers.
// A record that fails is named (line, cell id, the first reason) and left out, never half-used.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';

/** Far above any record the engine writes (about 8 levels), far below a stack overflow. */
export const maxNesting = 64;

/** Why `value` cannot be shown safely (nesting or a printing trap), or undefined. Iterative. */
export function structureProblem(value: unknown, limit = maxNesting): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return `it is nested deeper than ${limit} levels`;
    if (!Array.isArray(item)) {
      for (const trap of ['toString', 'valueOf'])
        if (Object.prototype.hasOwnProperty.call(item, trap)) return `it holds an object with a "${trap}" field`;
    }
    for (const child of Object.values(item))
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}

// JSON has no NaN or Infinity: a figure that was one (a rate over no time) is written as null
const number = { type: ['number', 'null'] };
const string = { type: 'string' };
const numbers = { type: 'object', additionalProperties: number };
const strings = { type: 'array', items: string };

const operationStats = {
  type: 'object',
  properties: {
    operation: string,
    operations: number,
    averageUs: number,
    minUs: number,
    maxUs: number,
    latencyVarianceUs2: number,
    percentilesUs: numbers,
    returnCodes: numbers,
    histogramCounts: numbers,
    timeseries: { type: 'array', items: { type: 'object', properties: { startMs: number, averageUs: number } } },
    percentilesSource: string,
  },
};

const ycsbReport = {
  type: 'object',
  properties: {
    runtimeMs: number,
    throughputOpsPerSec: number,
    operations: { type: 'object', additionalProperties: operationStats },
    other: { type: 'object', additionalProperties: numbers },
    warnings: strings,
  },
};

const hostCpu = {
  type: 'object',
  properties: {
    role: string,
    cores: number,
    busyPct: number,
    userPct: number,
    systemPct: number,
    softirqPct: number,
    idlePct: number,
    maxCoreBusyPct: number,
    contextSwitchesPerSec: number,
    interruptsPerSec: number,
    nicInterruptsPerSec: numbers,
    process: { type: 'object', properties: { name: string, pid: number, pctOfCore: number, cpuSec: number } },
    series: {
      type: 'array',
      items: { type: 'object', properties: { tSec: number, busyPct: number, processPctOfCore: number } },
    },
  },
};

const evidence = {
  type: 'object',
  properties: {
    server: { type: 'object' },
    bucket: { type: 'object' },
    ycsb: { type: 'object' },
    // a cell of a plan with cluster sizes (model.ts ClusterEvidence)
    cluster: {
      type: 'object',
      properties: {
        size: number,
        members: {
          type: 'array',
          items: { type: 'object', properties: { host: string, hostname: string, services: strings } },
        },
        replicas: { type: 'object', properties: { requested: number, effective: number } },
        added: strings,
        ejected: strings,
        balanced: { type: 'boolean' },
        rebalance: { type: 'object', properties: { outcome: string, ms: number, polls: number } },
        nodes: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            properties: {
              services: strings,
              activeVBuckets: number,
              replicaVBuckets: number,
              items: number,
              replicaItems: number,
            },
          },
        },
      },
    },
    cpu: {
      type: 'object',
      properties: {
        sampler: { type: 'object', properties: { intervalMs: number, selfCostPctOfCore: numbers } },
        hosts: { type: 'object', additionalProperties: hostCpu },
        serverCpuUsPerOp: number,
        memcachedCpuUsPerOp: number,
        opsPerBusyServerCore: number,
      },
    },
    timeseries: {
      type: 'object',
      properties: {
        status: {
          type: 'object',
          additionalProperties: {
            type: 'array',
            items: {
              type: 'object',
              properties: { tSec: number, operations: number, opsPerSec: number, latencyUs: numbers },
            },
          },
        },
        hdr: {
          type: 'object',
          properties: {
            files: strings,
            afterWarmup: { type: 'boolean' },
            operations: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                properties: {
                  count: number,
                  meanUs: number,
                  maxUs: number,
                  percentilesUs: numbers,
                  spectrum: {
                    type: 'array',
                    items: { type: 'object', properties: { percentile: number, valueUs: number } },
                  },
                },
              },
            },
            counts: {
              type: 'array',
              items: {
                type: 'object',
                required: ['host', 'operation', 'ycsbOperations', 'hdrCount'],
                properties: { host: string, operation: string, ycsbOperations: number, hdrCount: number },
              },
            },
          },
        },
        warmupSec: number,
        throughputAfterWarmupOpsPerSec: number,
      },
    },
  },
};

/** model.ts' CellResult, as far as readers rely on it. */
export const cellRecordSchema = {
  type: 'object',
  required: ['kind', 'id', 'key', 'status'],
  properties: {
    kind: { const: 'cell' },
    id: string,
    key: {
      type: 'object',
      required: ['interface', 'stack', 'threads', 'repetition'],
      properties: {
        interface: string,
        address: string,
        stack: string,
        threads: { type: 'number' },
        repetition: { type: 'number' },
        clusterSize: { type: 'integer', minimum: 1 },
        axes: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
      },
    },
    status: { enum: ['ok', 'failed'] },
    accelerated: { type: ['boolean', 'null'] },
    startedAt: string,
    finishedAt: string,
    attempts: number,
    run: ycsbReport,
    clients: { type: 'array', items: { type: 'object', properties: { host: string, report: ycsbReport } } },
    load: { type: 'object', properties: { report: ycsbReport, itemCount: number, expectedItems: number } },
    error: {
      type: 'object',
      properties: { code: string, host: string, step: string, message: string, action: string },
    },
    logs: strings,
    marks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: string, message: string, host: string },
      },
    },
    evidence,
  },
};

let validator: ValidateFunction | undefined;

/** `key.axes.fieldlength must be a string or a number`: ajv's first error in words. */
function describe(error: ErrorObject): string {
  const path =
    error.instancePath
      .replace(/^\//, '')
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.') || 'the record';
  const expected = error.params as {
    type?: string | string[];
    allowedValues?: unknown[];
    allowedValue?: unknown;
    missingProperty?: string;
  };
  if (error.keyword === 'type')
    return `${path} must be ${[expected.type]
      .flat()
      .map((type) => (type === 'null' ? 'null' : `${/^[aeiou]/.test(String(type)) ? 'an' : 'a'} ${type}`))
      .join(' or ')}`;
  if (error.keyword === 'required')
    return `${path === 'the record' ? '' : `${path}.`}${expected.missingProperty} is missing`;
  if (error.keyword === 'enum')
    return `${path} must be one of ${(expected.allowedValues ?? []).map((value) => JSON.stringify(value)).join(', ')}`;
  if (error.keyword === 'const') return `${path} must be ${JSON.stringify(expected.allowedValue)}`;
  return `${path} ${error.message ?? 'is not valid'}`;
}

/** Why a parsed results line is not a cell record readers may use, or undefined when it is one. */
export function cellRecordProblem(value: unknown): string | undefined {
  // the schema first (it names the field; it only descends where it has a schema, so a deep value
  // costs it nothing), then what it cannot see: nesting and printing traps anywhere
  validator ??= new Ajv({ allErrors: false, strict: false }).compile(cellRecordSchema);
  if (!validator(value))
    return validator.errors?.[0] ? describe(validator.errors[0]) : 'it does not match the cell record schema';
  return structureProblem(value);
}
