/** The service's name and version, as `/`, `/openapi.json` and interface 2's branding report them. */
export const SERVICE_NAME = 'omm-catalog';
export const SERVICE_VERSION = '0.1.0';
