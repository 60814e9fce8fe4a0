// The plan written by "New benchmark plan from template": the cookbook's sweep (kernel, then
// Onload with a latency profile, 5..50 YCSB threads) with placeholder hosts to replace.
// Pure; the engine's plan checker accepts it (see test/client/planTemplate.test.ts).

export interface PlanTemplateInput {
  /** Plan name (letters, digits, `.`, `_`, `-`). */
  name: string;
  /** Workload file relative to the plan, if the workspace has one. */
  workloadPath?: string;
  /** An Onload profile relative to the plan, if the workspace has one. */
  profilePath?: string;
}

export function planTemplateText(input: PlanTemplateInput): string {
  const name = input.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 64) || 'benchmark';
  const plan = {
    name,
    description:
      'Kernel stack against Onload, YCSB workload A, 5 to 50 client threads. Replace the hosts and addresses with yours.',
    servers: [{ host: 'couchbase-server.example', couchbaseServerPath: '/opt/couchbase/bin/couchbase-server' }],
    interfaces: { '25G': '192.0.2.10' },
    clients: [{ host: 'ycsb-client.example', ycsbHome: '/opt/ycsb' }],
    bucket: { name: 'bench', ramQuotaMB: 1024, replicas: 0 },
    workload: {
      path: input.workloadPath ?? 'workloads/workloada',
      properties: { recordcount: 1000000, operationcount: 10000000, maxexecutiontime: 180 },
    },
    stacks: ['kernel', { name: 'latency', profile: input.profilePath ?? 'profiles/latency.opf' }],
    threads: { from: 5, to: 50, step: 5 },
    repetitions: 1,
  };
  return JSON.stringify(plan, null, 2) + '\n';
}
