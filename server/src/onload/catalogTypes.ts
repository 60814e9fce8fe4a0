// The shape of data/catalog.json, written by scripts/generate-onload-catalog.ts.

export type OptionScope = 'stack' | 'process' | 'both' | 'ef_vi';

export interface OptionInfo {
  name: string;
  scope: OptionScope;
  /** bool | integer | enum | bitmask | list | string | keyword-list | ipv4-mask */
  type: string;
  /** How libonload reads the value (decimal-atoi, decimal-strict, enum-name, hex, port-list, ...). */
  syntax: string | null;
  /** The C field is signed. */
  signed: boolean;
  category: string;
  compiledInDefaultBuild: boolean;
  description: string;
  /** The description was written by hand (not generated from facts). */
  described: boolean;
  /** Accepted outside the option tables (EF_NAME, EF_CLUSTER_NAME, EF_VI_*...). */
  extra?: boolean;
  default?: number | string;
  defaultLabel?: string;
  min?: number | string;
  max?: number | string;
  /** What the C field can hold; wider values are truncated. */
  storage?: [number | string, number | string];
  bits?: number;
  unit?: string;
  enumValues?: Record<string, string>;
  /** Names accepted by enum-name options (case-insensitive); numbers are rejected. */
  acceptedNames?: string[];
  keywords?: string[];
  bitNames?: Record<string, string>;
  maxLength?: number;
  deprecated?: boolean;
  replacedBy?: string[];
  experimental?: boolean;
  debugOnly?: boolean;
  build?: string;
  buildProfiles?: string[];
  notRead?: boolean;
  sysctl?: string[];
}

export interface StandardProfileStep {
  kind: 'set' | 'import';
  name: string;
  value?: string;
  dynamic?: boolean;
  line: number;
  conditional: boolean;
}

export interface StandardProfile {
  name: string;
  file: string;
  fragment: boolean;
  steps: StandardProfileStep[];
}

export interface CatalogData {
  source: { repo: string; commit: string; onloadVersion: string };
  options: OptionInfo[];
  /** Names that used to be options; libonload logs an error and points at the replacement. */
  removed: { name: string; replacement: string }[];
  standardProfiles: StandardProfile[];
}
