/** When a link is fetched ahead (the options' choice; speculate.ts). */
export const EAGERNESS = ['conservative', 'moderate', 'eager'] as const;
export type Eagerness = (typeof EAGERNESS)[number];

/** The settings speculation reads (a part of the extension's Settings). */
export interface SpeculationSettings {
  speculation: boolean;
  prerender: boolean;
  eagerness: Eagerness;
  excludedSites: readonly string[];
  speculationDisabledSites: readonly string[];
}
