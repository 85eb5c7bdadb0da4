export {
  ARD_SPEC,
  ARD_PATH,
  ARD_LINK_REL,
  ARD_MEDIA_TYPE,
  ARD_CONTEXT,
  ARD_QUERIES,
} from './format';
export type { ArdEntry, ArdManifest } from './format';
export { validateArdManifest } from './validate';
export type { ValidateArdManifestOptions, ArdValidationResult } from './validate';
