// Captures the real YCSB 0.17.0's output in the lab (a client host) as parser fixtures
// (test/fixtures/ycsb-output/lab_ycsb-0.17.0_*): status lines, the final report in text and both
// JSON exporters, histogram and timeseries measurements, HDR interval logs, failed operations
// and a JVM killed mid-run. Why: the parsers must be tested on what the real program prints, not
// on samples written from an idea of it. Run by hand when the lab's YCSB changes:
//   node --import tsx test/lab/captureYcsbOutput.ts
// Output is written as captured, except that the lab's temporary paths become /opt/ycsb and /tmp/...
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startLab } from './index';
import { labJavaOptions } from './realYcsb';

const out = resolve(__dirname, '..', 'fixtures', 'ycsb-output');

async function main(): Promise<void> {
  const lab = await startLab();
  try {
    const auth = `${lab.couchbase.username}:${lab.couchbase.password}`;
    const rest = `http://${lab.interfaces[0].address}:${lab.couchbase.restPort}`;
    // the client's home, as a folder of this machine (its overlay); YCSB writes there as bench
    const home = lab.hostPath(lab.clientHost, lab.hosts[lab.clientHost].home);
    const setup = await lab.ssh(
      lab.clientHost,
      [
        `curl -s -f -u '${auth}' -d name=bench -d ramQuotaMB=128 -d replicaNumber=0 ${rest}/pools/default/buckets`,
        `sleep 0.5; curl -s -f -u '${auth}' -X PUT -d password=bench-user-pass -d 'roles=bucket_full_access[bench]' ${rest}/settings/rbac/users/local/bench`,
      ].join(' && '),
    );
    if (setup.code !== 0) throw new Error(setup.stderr);
    lab.writeFile(
      lab.clientHost,
      `${lab.hosts[lab.clientHost].home}/bench.properties`,
      `couchbase.host=${lab.interfaces[0].address}\ncouchbase.bucket=bench\ncouchbase.password=bench-user-pass\n`,
    );
    const hdrRemote = `${lab.hosts[lab.clientHost].home}/hdr`;
    await lab.ssh(lab.clientHost, `mkdir -p ${hdrRemote}`);
    const hdrDir = join(home, 'hdr');
    const clean = (text: string): string =>
      text
        .split(lab.ycsbHome)
        .join('/opt/ycsb')
        .split(lab.dir)
        .join('/tmp/lab')
        .replace(
          /-Dcom\.couchbase\.bootstrap(Carrier|Http)DirectPort=\d+/g,
          '-Dcom.couchbase.bootstrap$1DirectPort=PORT',
        )
        .replace(/-Xbootclasspath\/a:\S+/g, '-Xbootclasspath/a:/opt/jaxb/jaxb-api-2.3.1.jar');
    const run = async (name: string, args: string, streams: 'both' | 'stdout' = 'both'): Promise<void> => {
      const result = await lab.ssh(
        lab.clientHost,
        `JAVA_OPTS='${labJavaOptions(lab.couchbase.kvPort, lab.couchbase.restPort)}' timeout 120 ${lab.ycsbHome}/bin/ycsb.sh ${args} -P bench.properties`,
        { timeoutMs: 150_000 },
      );
      writeFileSync(join(out, `lab_ycsb-0.17.0_${name}.stdout.txt`), clean(result.stdout));
      if (streams === 'both') writeFileSync(join(out, `lab_ycsb-0.17.0_${name}.stderr.txt`), clean(result.stderr));
      console.log(`${name}: exit ${result.code}`);
    };
    const workload = (name: string): string => `-P ${lab.ycsbHome}/workloads/${name}`;
    await run(
      'workloada_load_hdrhistogram_status',
      `load couchbase2 -s ${workload('workloada')} -p recordcount=300 -p status.interval=1 -threads 2`,
    );
    await lab.ssh(
      lab.clientHost,
      `curl -s -u '${auth}' --data-urlencode 'statement=CREATE PRIMARY INDEX ON \`bench\`' http://${lab.interfaces[0].address}:$(curl -s -u '${auth}' ${rest}/pools/default/nodeServices | python3 -c 'import json,sys; print(json.load(sys.stdin)["nodesExt"][0]["services"]["n1ql"])')/query/service; sleep 2`,
    );
    lab.faults.set({ temporaryFailureEvery: 40 });
    await run(
      'workloadb_run_hdrhistogram-fileoutput_failures',
      `run couchbase2 -s ${workload('workloadb')} -p recordcount=300 -p operationcount=600 -p status.interval=1 -p hdrhistogram.fileoutput=true -p hdrhistogram.output.path=${hdrRemote}/ -p hdrhistogram.percentiles=50,95,99 -threads 2`,
    );
    lab.faults.clear();
    for (const file of readdirSync(hdrDir))
      writeFileSync(join(out, `lab_ycsb-0.17.0_workloadb_run_${file}`), readFileSync(join(hdrDir, file)));
    await run(
      'workloada_run_json-exporter',
      `run couchbase2 ${workload('workloada')} -p recordcount=300 -p operationcount=300 -p exporter=site.ycsb.measurements.exporter.JSONMeasurementsExporter`,
      'stdout',
    );
    await run(
      'workloada_run_json-array-exporter',
      `run couchbase2 ${workload('workloada')} -p recordcount=300 -p operationcount=300 -p exporter=site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter`,
      'stdout',
    );
    await run(
      'workloade_run_histogram_scan',
      `run couchbase2 -s ${workload('workloade')} -p recordcount=300 -p operationcount=200 -p maxscanlength=10 -p measurementtype=histogram -p histogram.buckets=20 -p status.interval=1`,
    );
    await run(
      'workloade_run_hdrhistogram-plus-histogram_scan',
      `run couchbase2 -s ${workload('workloade')} -p recordcount=300 -p operationcount=200 -p maxscanlength=10 -p measurementtype=hdrhistogram+histogram -p histogram.buckets=20 -p status.interval=1`,
    );
    await run(
      'workloada_run_histogram-verbose_interval-both_target',
      `run couchbase2 -s ${workload('workloada')} -p recordcount=300 -p operationcount=300 -p measurementtype=histogram -p histogram.buckets=20 -p measurement.histogram.verbose=true -p measurement.interval=both -p status.interval=1 -target 100`,
    );
    await run(
      'workloadc_run_timeseries',
      `run couchbase2 -s ${workload('workloadc')} -p recordcount=300 -p operationcount=300 -p measurementtype=timeseries -p timeseries.granularity=100 -p status.interval=1`,
    );
    lab.faults.set({ ycsbCrashAfterOps: 50 });
    await run(
      'workloadc_run_jvm-killed',
      `run couchbase2 -s ${workload('workloadc')} -p recordcount=300 -p operationcount=600 -p status.interval=1`,
    );
    lab.faults.clear();
  } finally {
    await lab.stop();
  }
}

mkdirSync(out, { recursive: true });
main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
