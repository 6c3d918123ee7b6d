/** Kept equal to package.json's version (checked by a test). */
export const FERMIX_VERSION = '0.1.0';
