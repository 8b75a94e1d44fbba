-- name: request_callees
-- description: For the request tree's calls that no callee span answered, and the Dependencies page's edges (dependency-data.ts): the service that answers at each of {endpoints} (what a CLIENT span dialed, its dependency up to the URL template: faultline_dependency_endpoint, sql/schema/060) around the request [{from}, {to}), and the share of its traffic its own sampling dropped (callee_unsampled). A call to such a service with no span of it under the call is one the first-hand rule could not see answered: where callee_unsampled > 0, its span was likely sampled out.
SELECT endpoint, callee, callee_unsampled
FROM endpoint_callees(from = {from:DateTime}, to = {to:DateTime})
WHERE endpoint IN {endpoints:Array(String)}
ORDER BY endpoint
