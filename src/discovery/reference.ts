import type { PriorityClass } from '../core/priority';
import type { ResourceKind, ScriptMode } from './types';

/**
 * A URL as written in one attribute, already classified, not yet resolved against the base URL.
 * The classifiers produce these; the scanner resolves, de-duplicates and positions them.
 */
export interface ResourceReference {
  /** The attribute value (or srcset candidate) exactly as written; may be relative or junk. */
  value: string;
  kind: ResourceKind;
  priority: PriorityClass;
  attribute: string;
  scriptMode?: ScriptMode;
  lazy?: true;
}

/** Attribute values by lower-case name, as htmlparser2 reports them (entities decoded). */
export type Attributes = Readonly<Record<string, string | undefined>>;
