// The Onload option catalog, loaded once from the generated data file.
import type { CatalogData, OptionInfo, StandardProfile } from './catalogTypes';
import catalogJson from './data/catalog.json';
import { closestMatches } from '../common/similarity';

export class OnloadCatalog {
  readonly options: readonly OptionInfo[];
  readonly names: readonly string[];
  readonly standardProfiles: readonly StandardProfile[];
  readonly source: CatalogData['source'];
  private readonly byName = new Map<string, OptionInfo>();
  private readonly removedByName = new Map<string, string>();
  private readonly profilesByName = new Map<string, StandardProfile>();
  private readonly suggestionCache = new Map<string, string[]>();

  constructor(data: CatalogData) {
    this.options = data.options;
    this.names = data.options.map((option) => option.name);
    this.standardProfiles = data.standardProfiles;
    this.source = data.source;
    for (const option of data.options) this.byName.set(option.name, option);
    for (const removed of data.removed) this.removedByName.set(removed.name, removed.replacement);
    for (const profile of data.standardProfiles) this.profilesByName.set(profile.name, profile);
  }

  option(name: string): OptionInfo | undefined {
    return this.byName.get(name);
  }

  /** The replacement of a removed option name, when `name` is one. */
  removedReplacement(name: string): string | undefined {
    return this.removedByName.get(name);
  }

  /** A profile Onload ships, by the name `onload_import` and `--profile` use. */
  standardProfile(name: string): StandardProfile | undefined {
    return this.profilesByName.get(name);
  }

  /** "Did you mean" names, remembered: a long profile repeats its typos. */
  suggestOptions(name: string): string[] {
    let suggestions = this.suggestionCache.get(name);
    if (!suggestions) {
      suggestions = closestMatches(name, this.names);
      if (this.suggestionCache.size > 5000) this.suggestionCache.clear();
      this.suggestionCache.set(name, suggestions);
    }
    return suggestions;
  }
}

let shared: OnloadCatalog | undefined;

/** The catalog, parsed on first use and shared afterwards. */
export function onloadCatalog(): OnloadCatalog {
  shared ??= new OnloadCatalog(catalogJson as unknown as CatalogData);
  return shared;
}
