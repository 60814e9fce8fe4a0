// Stand-in `bin/ycsb` on the lab's client hosts: the python wrapper's command line
// (`ycsb load|run <binding> [-cp ..] [-jvm-args ..] client-options...`), the client's options
// (-P, -p, -threads, -target, -s, -l, -t, -load), a CoreWorkload subset performed for real against
// the lab's Couchbase node through the real SDK, and YCSB 0.17.0's exact output: preamble and `-s`
// status lines on stderr, the final report on stdout (or `exportfile`, text or JSON exporters).
//
// As the real programs (REAL-LAB Y1-Y8): it is started through `python2 bin/ycsb` (bin/ycsb is
// Python 2 text; the lab's python2 exists only when a test asks for it) or `bin/ycsb.sh` (JVM
// options from JAVA_OPTS; `-jvm-args` is then an unknown option); each binding reads only its real
// keys: couchbase2 logs in as the user named after the bucket, with no username or port keys,
// couchbase3 reads username (default Administrator), password, managerPort and kvPort (default
// 11210); SCAN runs couchbase2's N1QL through the node's query service (no primary index: every
// SCAN fails); the load honours maxexecutiontime and -target (a throttle); run inserts count from
// recordcount in every client (so parallel clients collide: with upsert=false, INSERT-FAILED);
// Client exits 0 after most failures (unknown option, unreadable -P file, missing workload, DB
// init failure).
// Lab specifics: the password must come from a -P file (a `-p couchbase.password=...` is refused,
// exit 2); couchbase2 uses ports 11210 and 8091 as the real one does;
// `requestdistribution` is always uniform. Faults (LabFaults.ycsb*) add failed operations,
// a crash (exit 247 with no report, as bin/ycsb when its JVM is SIGKILLed) or a hang.
import * as couchbase from 'couchbase';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ycsbHome } from '../hostFiles';
import { cachedFaults, loadHostConfig, type HostConfig } from '../labFiles';
import { HdrLogs } from './hdrLog';
import { parseJavaProperties } from './javaProperties';
import {
  jsonReport,
  LatencySamples,
  reportRecords,
  statusLine,
  textReport,
  type Measurement,
} from './ycsbFormat';

const bindings: Record<string, string> = {
  couchbase: 'site.ycsb.db.CouchbaseClient',
  couchbase2: 'site.ycsb.db.couchbase2.Couchbase2Client',
  couchbase3: 'site.ycsb.db.couchbase3.Couchbase3Client',
  basic: 'site.ycsb.BasicDB',
};
const dbWrapperLine = 'DBWrapper: report latency for each error is false and specific error codes to track for latency are: []';
/** The lab never lets a stand-in run longer than this, whatever the workload says. */
const hardLimitMs = 120_000;

class UsageExit extends Error {
  constructor(message: string, readonly code: number, readonly toStdout = false) {
    super(message);
  }
}

interface ClientArgs {
  command: 'load' | 'run';
  binding: string;
  javaArgs: string[];
  clientArgs: string[];
  properties: Map<string, string>;
  threads: number;
  status: boolean;
  label: string;
}

function usage(): string {
  return 'Usage: java site.ycsb.Client [options]\nOptions:\n  -threads n: execute using n threads (default: 1)\n  -target n: attempt to do n operations per second (default: unlimited)\n  -load:  run the loading phase of the workload\n  -t:  run the transactions phase of the workload (default)\n  -db dbname: specify the name of the DB to use\n  -P propertyfile: load properties from the given file. Multiple files can be specified\n  -p name=value:  specify a property to be passed to the DB and workloads\n  -s:  show status during run (default: no status)\n  -l label:  use label for status (e.g. to label one experiment out of a whole batch)\n';
}

export function parseArguments(argv: string[], cwd: string, launcher = process.env.ONLOAD_BENCH_LAB_LAUNCHER ?? 'python'): ClientArgs {
  const [command, binding, ...rest] = argv;
  if (command !== 'load' && command !== 'run') {
    throw new UsageExit(`usage: ycsb [-h] command database [options]\nycsb: error: argument command: invalid choice: '${command ?? ''}' (choose from 'load', 'run', 'shell')\n`, 2);
  }
  if (!binding || !(binding in bindings)) throw new UsageExit(`[ERROR]  Database "${binding ?? ''}" is not available in this lab (use couchbase2)\n`, 1);
  // REAL-LAB Y4: bin/ycsb.sh takes JVM options from JAVA_OPTS and passes everything else to Client
  const javaArgs: string[] = launcher === 'sh' ? (process.env.ONLOAD_BENCH_LAB_JAVA_OPTS ?? '').split(/\s+/).filter(Boolean) : [];
  const clientArgs: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (launcher === 'sh') clientArgs.push(arg);
    else if (arg === '-cp') i++;
    else if (arg === '-jvm-args') javaArgs.push(...(rest[++i] ?? '').split(/\s+/).filter(Boolean));
    else if (arg.startsWith('-jvm-args=')) javaArgs.push(...arg.slice('-jvm-args='.length).split(/\s+/).filter(Boolean));
    else clientArgs.push(arg);
  }
  const fileProperties = new Map<string, string>();
  const argProperties = new Map<string, string>();
  let threads = 1;
  let status = false;
  let label = '';
  for (let i = 0; i < clientArgs.length; i++) {
    const arg = clientArgs[i];
    const value = (): string => {
      const next = clientArgs[++i];
      if (next === undefined) throw new UsageExit(usage(), 0, true);
      return next;
    };
    switch (arg) {
      case '-threads':
        threads = Number(value());
        argProperties.set('threadcount', String(threads));
        break;
      case '-target':
        argProperties.set('target', value());
        break;
      case '-load':
      case '-t':
        break;
      case '-s':
        status = true;
        break;
      case '-l':
        label = value();
        break;
      case '-db':
        value();
        break;
      case '-P': {
        const file = resolve(cwd, value());
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          // REAL-LAB Y8: Client prints the stack trace and exits 0
          throw new UsageExit(`Unable to open the properties file ${clientArgs[i]}\njava.io.FileNotFoundException: ${clientArgs[i]} (No such file or directory)\n`, 0);
        }
        for (const [key, property] of parseJavaProperties(text)) fileProperties.set(key, property);
        break;
      }
      case '-p': {
        const pair = value();
        const equals = pair.indexOf('=');
        if (equals < 0) throw new UsageExit(`Argument '-p' expected to be in key=value format\n${usage()}`, 0, true);
        argProperties.set(pair.slice(0, equals), pair.slice(equals + 1));
        break;
      }
      default:
        throw new UsageExit(`Unknown option ${arg}\n${usage()}`, 0, true);
    }
  }
  if (argProperties.has('couchbase.password')) {
    throw new UsageExit('lab ycsb: refusing couchbase.password on the command line (visible in ps and in logs): put it in a -P properties file\n', 2);
  }
  const properties = new Map([...fileProperties, ...argProperties]);
  if (!Number.isInteger(threads) || threads < 1) throw new UsageExit(usage(), 0, true);
  return { command, binding, javaArgs, clientArgs, properties, threads, status, label };
}

/** YCSB's Utils.fnvhash64, which turns record numbers into keys when insertorder=hashed. */
export function fnvhash64(value: number): bigint {
  let remaining = BigInt(value);
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < 8; i++) {
    hash ^= remaining & 0xffn;
    remaining >>= 8n;
    hash = (hash * 1099511628211n) & 0xffffffffffffffffn;
  }
  const signed = BigInt.asIntN(64, hash);
  return signed < 0n ? -signed : signed;
}

function keyOf(recordNumber: number, ordered: boolean): string {
  return `user${ordered ? recordNumber : fnvhash64(recordNumber)}`;
}

function document(fieldCount: number, fieldLength: number): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let f = 0; f < fieldCount; f++) {
    let text = '';
    for (let c = 0; c < fieldLength; c++) text += String.fromCharCode(33 + Math.floor(Math.random() * 94));
    fields[`field${f}`] = text;
  }
  return fields;
}

type OperationName = 'READ' | 'UPDATE' | 'INSERT' | 'SCAN' | 'READ-MODIFY-WRITE';

/** `ycsb shell BINDING`: the interactive client; with no input it says hello and ends (exit 0). */
async function shell(binding: string | undefined): Promise<number> {
  if (!binding || !(binding in bindings)) throw new UsageExit(`[ERROR]  Database "${binding ?? ''}" is not available in this lab (use couchbase2)\n`, 1);
  process.stdout.write('YCSB Command Line client\nType "help" for command line help\nStart with "-help" for usage info\nConnected.\n> ');
  for await (const chunk of process.stdin) void chunk; // read to EOF like the real shell
  process.stdout.write('\n');
  return 0;
}

async function run(argv: string[]): Promise<number> {
  if (argv[0] === 'shell') return shell(argv[1]);
  const lab: HostConfig = loadHostConfig();
  const faults = cachedFaults(lab.faultsDir);
  const args = parseArguments(argv, process.cwd());
  const props = args.properties;
  const number = (name: string, fallback: number): number => {
    const value = props.get(name);
    if (value === undefined || value.trim() === '') return fallback;
    const parsed = Number(value.trim());
    // what the JVM prints for Integer.parseInt / Double.parseDouble of a bad value
    if (!Number.isFinite(parsed)) throw new UsageExit(`Exception in thread "main" java.lang.NumberFormatException: For input string: "${value}"\n`, 1);
    return parsed;
  };
  const transactions = args.command === 'run';
  const home = ycsbHome;
  const dbClass = bindings[args.binding];
  const fullArgs = ['-db', dbClass, ...args.clientArgs, transactions ? '-t' : '-load'];
  const classpath = [`${home}/${args.binding}-binding/conf`, `${home}/conf`, `${home}/lib/HdrHistogram-2.1.4.jar`, `${home}/lib/core-${lab.versions.ycsb}.jar`, `${home}/${args.binding}-binding/lib/${args.binding}-binding-${lab.versions.ycsb}.jar`].join(':');
  const err = (line: string): void => void process.stderr.write(`${line}\n`);
  if (args.binding === 'couchbase') err('[WARN]  The "couchbase" binding is deprecated. Please use "couchbase2" instead.');
  err(['/usr/bin/java', ...args.javaArgs, '-cp', classpath, 'site.ycsb.Client', ...fullArgs].join(' '));
  err(`Command line: ${fullArgs.join(' ')}`);
  err(`YCSB Client ${lab.versions.ycsb}`);
  err('');
  err('Loading workload...');
  const measurementType = props.get('measurementtype') ?? 'hdrhistogram';
  if (measurementType !== 'hdrhistogram') {
    throw new UsageExit(`lab ycsb: measurementtype=${measurementType} is not simulated (hdrhistogram only)\n`, 2);
  }
  if (!props.has('workload')) {
    process.stdout.write(`Missing property: workload\n${usage()}`);
    return 0;
  }

  const recordCount = number('recordcount', 0);
  const insertStart = number('insertstart', 0);
  const insertCount = number('insertcount', recordCount - insertStart);
  if (!transactions && insertStart + insertCount > recordCount) {
    err('Invalid combination of insertstart, insertcount and recordcount.');
    err('recordcount must be bigger than insertstart + insertcount.');
    return 255;
  }
  const operationCount = transactions ? number('operationcount', 0) : insertCount;
  const maxExecutionSec = number('maxexecutiontime', 0);
  const statusIntervalMs = Math.max(100, number('status.interval', 10) * 1000);
  const fieldCount = number('fieldcount', 10);
  const fieldLength = number('fieldlength', 100);
  const ordered = props.get('insertorder') === 'ordered';
  const maxScanLength = number('maxscanlength', 1000);
  const proportions: [OperationName, number][] = [
    ['READ', number('readproportion', 0.95)],
    ['UPDATE', number('updateproportion', 0.05)],
    ['INSERT', number('insertproportion', 0)],
    ['SCAN', number('scanproportion', 0)],
    ['READ-MODIFY-WRITE', number('readmodifywriteproportion', 0)],
  ];
  const proportionTotal = proportions.reduce((sum, [, weight]) => sum + weight, 0);
  if (args.threads > operationCount && operationCount > 0) {
    process.stdout.write('Warning: the threadcount is bigger than recordcount, the threadcount will be recordcount!\n');
  }
  const threads = operationCount > 0 ? Math.min(args.threads, operationCount) : args.threads;
  err('Starting test.');
  if (maxExecutionSec > 0) err(`Maximum execution time specified as: ${maxExecutionSec} secs`);

  // --- measurements (DBWrapper semantics: OK latencies under NAME, others under NAME-FAILED)
  const measurements = new Map<string, Measurement>();
  const hdrLogs = HdrLogs.fromProperties(props, err);
  const measurement = (name: string): Measurement => {
    let found = measurements.get(name);
    if (!found) {
      found = { name, total: new LatencySamples(), interval: new LatencySamples(10_000), returnCodes: new Map() };
      measurements.set(name, found);
    }
    return found;
  };
  const record = (name: string, status: string, latencyUs: number, countReturn = true): void => {
    const target = measurement(status === 'OK' ? name : `${name}-FAILED`);
    target.total.add(latencyUs);
    target.interval.add(latencyUs);
    hdrLogs?.record(target.name, latencyUs);
    if (countReturn) {
      const codes = measurement(name).returnCodes;
      codes.set(status, (codes.get(status) ?? 0) + 1);
    }
  };

  const startedAt = Date.now();
  let totalOps = 0;
  /** Operations begun (the fault switches count these, so "every Nth" is exact with many threads). */
  let startedOps = 0;
  let stopRequested = false;
  const perThreadTarget = (index: number): number =>
    operationCount > 0 ? Math.floor(operationCount / threads) + (index < operationCount % threads ? 1 : 0) : 0;
  const doneByThread = new Array<number>(threads).fill(0);

  // --- status thread
  let lastStatusAt = startedAt;
  let lastStatusOps = 0;
  const printStatus = (): void => {
    if (!args.status) return;
    const now = Date.now();
    const todo = operationCount > 0 ? doneByThread.reduce((sum, done, index) => sum + Math.max(0, perThreadTarget(index) - done), 0) : 0;
    const summaries = [...measurements.values()].map((entry) => entry.interval.summary(entry.name));
    hdrLogs?.interval(now);
    err(
      statusLine({
        now: new Date(now),
        label: args.label,
        elapsedMs: now - startedAt,
        totalOps,
        intervalOps: totalOps - lastStatusOps,
        intervalMs: now - lastStatusAt,
        todo,
        summaries,
      }),
    );
    for (const entry of measurements.values()) entry.interval = new LatencySamples(10_000);
    lastStatusAt = now;
    lastStatusOps = totalOps;
  };
  printStatus();
  const statusTimer = setInterval(printStatus, statusIntervalMs);
  const limitMs = Math.min(hardLimitMs, maxExecutionSec > 0 ? maxExecutionSec * 1000 : hardLimitMs);
  const terminator = setTimeout(() => {
    if (maxExecutionSec > 0) {
      err('Maximum time elapsed. Requesting stop for the workload.');
      err('Stop requested for workload. Now Joining!');
    }
    stopRequested = true;
  }, limitMs);

  // --- the database (one SDK cluster shared by the threads, as the couchbase2 binding shares its environment)
  const bucketName = props.get('couchbase.bucket') ?? 'default';
  const rawHost = (props.get('couchbase.host') ?? '127.0.0.1').split(',')[0].trim();
  // an IPv6 address goes into URLs and the connection string in brackets
  const host = rawHost.includes(':') && !rawHost.startsWith('[') ? `[${rawHost}]` : rawHost;
  // REAL-LAB Y1-Y3: couchbase2 reads no username and no port (always 11210 and 8091); couchbase3
  // reads them, with the real defaults
  const couchbase3 = args.binding === 'couchbase3';
  const kvPort = couchbase3 ? number('couchbase.kvPort', 11210) : 11210;
  const restPort = couchbase3 ? number('couchbase.managerPort', 8091) : 8091;
  const loginUser = couchbase3 ? props.get('couchbase.username') ?? 'Administrator' : bucketName;
  const loginPassword = props.get('couchbase.password') ?? '';
  const upsert = props.get('couchbase.upsert') === 'true';
  const targetOpsPerSec = number('target', 0);
  let collection: couchbase.Collection | undefined;
  let cluster: couchbase.Cluster | undefined;
  let initError: unknown;
  try {
    cluster = await couchbase.connect(`couchbase://${host}:${kvPort}`, {
      username: loginUser,
      password: loginPassword,
      // short, so a dead node fails a lab run in seconds (the real binding waits longer)
      timeouts: { kvTimeout: 2500, connectTimeout: 5000, bootstrapTimeout: 5000 },
    });
    const bucket = cluster.bucket(bucketName);
    // The SDK's bucket readiness: every KV endpoint answers a ping (as the engine checks too).
    const ping = await bucket.ping({ serviceTypes: [couchbase.ServiceType.KeyValue], timeout: 5000 });
    const kv = ping.services.kv ?? [];
    if (kv.length === 0 || kv.some((endpoint) => endpoint.state !== couchbase.PingState.Ok)) {
      throw new Error(`bucket ${bucketName} not ready: ${kv.map((endpoint) => endpoint.error ?? endpoint.state).join(', ') || 'no KV endpoint'}`);
    }
    collection = bucket.defaultCollection();
  } catch (error) {
    initError = error;
  }
  for (let t = 0; t < threads; t++) err(dbWrapperLine);
  if (initError !== undefined || !collection) {
    const reason = initError instanceof Error ? `${initError.constructor.name}: ${initError.message}` : String(initError);
    const trace = `site.ycsb.DBException: Could not connect to Couchbase Bucket.\n\tat site.ycsb.db.couchbase2.Couchbase2Client.init(Couchbase2Client.java:188)\n\tat site.ycsb.DBWrapper.init(DBWrapper.java:86)\n\tat site.ycsb.ClientThread.run(ClientThread.java:91)\n\tat java.base/java.lang.Thread.run(Thread.java:840)\nCaused by: ${reason}\n`;
    for (let t = 0; t < threads; t++) {
      process.stderr.write(trace);
      process.stdout.write(trace);
    }
    clearTimeout(terminator);
    clearInterval(statusTimer);
    printStatus();
    await cluster?.close().catch(() => undefined);
    hdrLogs?.interval();
    writeReport(props, Math.max(1, Date.now() - startedAt), 0, []);
    return 0;
  }
  const kv = collection;

  // --- the workload
  let nextInsert = transactions ? recordCount : insertStart;
  let inserted = 0;
  let crashed = false;
  const statusOf = (error: unknown): string =>
    error instanceof couchbase.DocumentNotFoundError ? 'NOT_FOUND' : 'ERROR';

  async function timed(name: string, action: () => Promise<string>, injectError: boolean): Promise<string> {
    const started = process.hrtime.bigint();
    let status: string;
    if (injectError) status = 'ERROR';
    else {
      try {
        status = await action();
      } catch (error) {
        status = statusOf(error);
      }
    }
    record(name, status, Number((process.hrtime.bigint() - started) / 1000n));
    return status;
  }

  const readKey = async (key: string): Promise<string> => {
    await kv.get(key);
    return 'OK';
  };
  const updateKey = async (key: string): Promise<string> => {
    const fields = document(1, fieldLength);
    if (upsert) await kv.upsert(key, fields);
    else {
      const current = await kv.get(key);
      await kv.replace(key, { ...(current.content as Record<string, string>), ...fields });
    }
    return 'OK';
  };
  // CoreWorkload's keychooser: [insertstart, insertstart + insertcount)
  const randomExistingKey = (): string => keyOf(insertStart + Math.floor(Math.random() * Math.max(1, insertCount)), ordered);
  // couchbase2's scanAllFields: N1QL through the query service (REAL-LAB Y7)
  let queryUrl: string | undefined;
  const authHeader = `Basic ${Buffer.from(`${loginUser}:${loginPassword}`).toString('base64')}`;
  const scanKeys = async (startKey: string, length: number): Promise<string[]> => {
    if (!queryUrl) {
      const services = (await (await fetch(`http://${host}:${restPort}/pools/default/nodeServices`, { headers: { authorization: authHeader } })).json()) as { nodesExt?: { services?: { n1ql?: number } }[] };
      const port = services.nodesExt?.[0]?.services?.n1ql;
      if (!port) throw new Error('com.couchbase.client.core.ServiceNotAvailableException: The QUERY service is not enabled or no node in the cluster supports it.');
      queryUrl = `http://${host}:${port}/query/service`;
    }
    const statement = `SELECT RAW meta().id FROM \`${bucketName}\` WHERE meta().id >= $1 ORDER BY meta().id LIMIT $2`;
    const response = await fetch(queryUrl, { method: 'POST', headers: { authorization: authHeader, 'content-type': 'application/json' }, body: JSON.stringify({ statement, args: [startKey, length] }) });
    const body = (await response.json()) as { results?: string[]; errors?: { code: number; msg: string }[] };
    if (response.status !== 200 || body.errors) throw new Error(`Error while parsing N1QL Result. Query: ${statement}, Errors: ${JSON.stringify(body.errors)}`);
    return body.results ?? [];
  };

  async function oneOperation(): Promise<void> {
    const faultSet = faults();
    const opNumber = ++startedOps;
    const injectError = (faultSet.ycsbErrorEvery ?? 0) > 0 && opNumber % faultSet.ycsbErrorEvery! === 0;
    if (!transactions) {
      const key = keyOf(nextInsert++, ordered);
      await timed('INSERT', async () => {
        const value = document(fieldCount, fieldLength);
        if (upsert) await kv.upsert(key, value);
        else await kv.insert(key, value);
        return 'OK';
      }, injectError);
      return;
    }
    let pick = Math.random() * proportionTotal;
    let chosen: OperationName = 'READ';
    for (const [name, weight] of proportions) {
      if (pick < weight) {
        chosen = name;
        break;
      }
      pick -= weight;
    }
    if (chosen === 'READ') await timed('READ', () => readKey(randomExistingKey()), injectError);
    else if (chosen === 'UPDATE') await timed('UPDATE', () => updateKey(randomExistingKey()), injectError);
    else if (chosen === 'INSERT') {
      const key = keyOf(nextInsert++, ordered);
      const status = await timed('INSERT', async () => {
        const value = document(fieldCount, fieldLength);
        if (upsert) await kv.upsert(key, value);
        else await kv.insert(key, value);
        return 'OK';
      }, injectError);
      if (status === 'OK') inserted += 1;
    } else if (chosen === 'SCAN') {
      const startKey = randomExistingKey();
      const length = 1 + Math.floor(Math.random() * maxScanLength);
      await timed('SCAN', async () => {
        for (const key of await scanKeys(startKey, length)) {
          await kv.get(key).catch((error: unknown) => {
            if (!(error instanceof couchbase.DocumentNotFoundError)) throw error;
          });
        }
        return 'OK';
      }, injectError);
    } else {
      const key = randomExistingKey();
      const started = process.hrtime.bigint();
      const readStatus = await timed('READ', () => readKey(key), injectError);
      const updateStatus = await timed('UPDATE', () => updateKey(key), false);
      const status = readStatus === 'OK' && updateStatus === 'OK' ? 'OK' : 'ERROR';
      record('READ-MODIFY-WRITE', status, Number((process.hrtime.bigint() - started) / 1000n));
    }
  }

  async function clientThread(index: number): Promise<void> {
    const target = perThreadTarget(index);
    while (!stopRequested && (operationCount === 0 || doneByThread[index] < target)) {
      const faultSet = faults();
      if (faultSet.ycsbCrashAfterOps !== undefined && totalOps >= faultSet.ycsbCrashAfterOps) {
        // bin/ycsb (python) exits with the JVM's status; a JVM killed by SIGKILL gives 256-9.
        crashed = true;
        process.exit(247);
      }
      if (faultSet.ycsbHangAfterOps !== undefined && totalOps >= faultSet.ycsbHangAfterOps) {
        await new Promise(() => undefined);
      }
      if (targetOpsPerSec > 0) {
        // Client's -target: every thread paces itself to its share of the target
        const due = startedAt + ((doneByThread[index] + 1) * threads * 1000) / targetOpsPerSec;
        while (!stopRequested && Date.now() < due) await new Promise((resolve) => setTimeout(resolve, Math.min(due - Date.now(), 200)));
        if (stopRequested) break;
      }
      await oneOperation();
      doneByThread[index] += 1;
      totalOps += 1;
    }
  }

  await Promise.all(Array.from({ length: threads }, (_, index) => clientThread(index)));
  if (crashed) return 247;
  clearTimeout(terminator);
  // each client thread's cleanup; the last one closes the shared environment
  for (let t = 0; t < threads; t++) {
    const started = process.hrtime.bigint();
    if (t === threads - 1) await cluster?.close().catch(() => undefined);
    record('CLEANUP', 'OK', t === threads - 1 ? 1 : Number((process.hrtime.bigint() - started) / 1000n), false);
  }
  const runtimeMs = Math.max(1, Date.now() - startedAt);
  clearInterval(statusTimer);
  printStatus();
  hdrLogs?.interval(); // exportMeasurements: the last interval
  writeReport(props, runtimeMs, totalOps, [...measurements.values()]);
  return 0;
}

function writeReport(props: Map<string, string>, runtimeMs: number, operations: number, measurements: Measurement[]): void {
  const percentiles = (props.get('hdrhistogram.percentiles') ?? '95,99').split(',').map(Number).filter((value) => Number.isFinite(value));
  const records = reportRecords(runtimeMs, operations, measurements, percentiles);
  const exporter = props.get('exporter') ?? 'site.ycsb.measurements.exporter.TextMeasurementsExporter';
  const text = exporter.endsWith('JSONArrayMeasurementsExporter')
    ? jsonReport(records, true)
    : exporter.endsWith('JSONMeasurementsExporter')
      ? jsonReport(records, false)
      : textReport(records);
  const exportFile = props.get('exportfile');
  if (exportFile) writeFileSync(resolve(process.cwd(), exportFile), text);
  else process.stdout.write(text);
}

if (require.main === module) {
  run(process.argv.slice(2)).then(
    (code) => {
      // let stdout drain before exiting (the report can be large)
      process.stdout.write('', () => process.exit(code));
    },
    (error: unknown) => {
      if (error instanceof UsageExit) {
        (error.toStdout ? process.stdout : process.stderr).write(error.message);
        process.stdout.write('', () => process.exit(error.code));
        return;
      }
      const text = error instanceof Error ? error.stack ?? error.message : String(error);
      process.stderr.write(`Exception in thread "main" ${text}\n`);
      process.exit(1);
    },
  );
}
