/**
 * The endpoint part of a stored dependency (what a call dialed, before the URL template 006
 * appends), as faultline_dependency_endpoint (sql/schema/060) takes it: the key service_endpoints
 * knows the answering service by.
 */
export const dependencyEndpoint = (dependency: string): string => dependency.split(' ')[0] ?? '';
