-- The host and port of an absolute URL. ClickHouse's domain() returns '' for a single-label host
-- (http://inventory:8080/…, as service names are inside a cluster), so the authority is read here.
CREATE OR REPLACE FUNCTION faultline_url_host AS (url) ->
    extract(url, '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?(\\[[^\\]/?#]*\\]|[^:/?#]*)');
CREATE OR REPLACE FUNCTION faultline_url_port AS (url) ->
    extract(url, '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?(?:\\[[^\\]/?#]*\\]|[^:/?#]*):([0-9]{1,5})(?:[/?#]|$)');

-- What a client span calls, named from the attributes the instrumentations set, most specific
-- first: the service the caller named (peer.service), a database (system + namespace), an RPC or
-- AWS service and method, a messaging destination, else the HTTP host (+ port when not 80/443),
-- followed by the URL template (url.template, e.g. '/users/{id}') when the instrumentation set one.
-- Low-cardinality by design: never a raw path, statement or id: a path with ids collapses to its
-- template, and without a template to the host alone (a path's first segment can itself be an id,
-- so it is not guessed at); a temporary messaging destination is named 'temporary'; cut to 200
-- characters (span data is attacker-controlled). '' when nothing names it.
CREATE OR REPLACE FUNCTION faultline_dependency AS (attrs) -> substringUTF8(multiIf(
    attrs['peer.service'] != '', attrs['peer.service'],
    attrs['db.system.name'] != '' OR attrs['db.system'] != '',
        trimRight(concat(if(attrs['db.system.name'] != '', attrs['db.system.name'], attrs['db.system']), ' ',
            if(attrs['db.namespace'] != '', attrs['db.namespace'], attrs['db.name']))),
    attrs['rpc.service'] != '',
        concat(if(attrs['rpc.system'] = 'aws-api', 'aws ', ''), attrs['rpc.service'],
            if(attrs['rpc.method'] != '', concat('/', attrs['rpc.method']), '')),
    attrs['messaging.system'] != '' OR attrs['messaging.destination.name'] != '',
        trimRight(concat(attrs['messaging.system'], ' ', multiIf(
            attrs['messaging.destination.temporary'] = 'true', 'temporary',
            attrs['messaging.destination.template'] != '', attrs['messaging.destination.template'],
            attrs['messaging.destination.name']))),
    attrs['server.address'] != '',
        concat(attrs['server.address'],
            if(attrs['server.port'] NOT IN ('', '80', '443'), concat(':', attrs['server.port']), ''),
            if(attrs['url.template'] != '', concat(' ', attrs['url.template']), '')),
    faultline_url_host(if(attrs['url.full'] != '', attrs['url.full'], attrs['http.url'])) != '',
        concat(faultline_url_host(if(attrs['url.full'] != '', attrs['url.full'], attrs['http.url'])),
            if(faultline_url_port(if(attrs['url.full'] != '', attrs['url.full'], attrs['http.url'])) NOT IN ('', '80', '443'),
               concat(':', faultline_url_port(if(attrs['url.full'] != '', attrs['url.full'], attrs['http.url']))), ''),
            if(attrs['url.template'] != '', concat(' ', attrs['url.template']), '')),
    attrs['net.peer.name'] != '', attrs['net.peer.name'],
    ''), 1, 200);

-- The dependency a span's row is stored under (failures.dependency, dependency_calls_1m): what it
-- calls, for every span kind but SERVER, whose server.address names the service itself.
CREATE OR REPLACE FUNCTION faultline_call_dependency AS (kind, attrs) ->
    if(faultline_span_kind(kind) = 'Server', '', faultline_dependency(attrs));
