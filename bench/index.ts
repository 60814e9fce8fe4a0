// `npm run bench`: every figure of the project in one run, each beside its reference measured in
// the same run. `npm run bench -- --json` prints one JSON object; `--only language|huge|imports|engine|evidence`.
import { cpus } from 'node:os';
import { benchEngine, formatEngineFigures } from './engine';
import { benchEvidence, formatEvidenceFigures } from './evidence';
import { benchHugeDocuments, formatHugeDocumentFigures } from './hugeDocuments';
import { benchLanguage, formatLanguageFigures } from './language';
import { benchManyImports, formatManyImportsFigures } from './manyImports';

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const only = process.argv[process.argv.indexOf('--only') + 1];
  const want = (part: string) => !process.argv.includes('--only') || only === part;
  const figures: Record<string, unknown> = {
    machine: { cpus: cpus().length, node: process.version },
  };
  if (want('language')) {
    const language = await benchLanguage();
    figures.language = language;
    if (!json) console.log(formatLanguageFigures(language) + '\n');
  }
  if (want('huge')) {
    const huge = await benchHugeDocuments();
    figures.hugeDocuments = huge;
    if (!json) console.log(formatHugeDocumentFigures(huge) + '\n');
  }
  if (want('imports')) {
    const imports = await benchManyImports();
    figures.manyImports = imports;
    if (!json) console.log(formatManyImportsFigures(imports) + '\n');
  }
  if (want('engine')) {
    const engine = await benchEngine();
    figures.engine = engine;
    if (!json) console.log(formatEngineFigures(engine));
  }
  if (want('evidence')) {
    const evidence = await benchEvidence();
    figures.evidence = evidence;
    if (!json) console.log(`\n${formatEvidenceFigures(evidence)}`);
  }
  if (json) console.log(JSON.stringify(figures));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
