// What the commands get: the shared services and the task provider. Apart from services.ts because
// the task provider is built from those services; one file holding both would make the tasks
// import their own builder (a circle).
import type { CoreServices } from './services';
import type { BenchmarkTaskProvider } from './tasks/benchmarkTaskProvider';

export interface ExtensionServices extends CoreServices {
  tasks: BenchmarkTaskProvider;
}
