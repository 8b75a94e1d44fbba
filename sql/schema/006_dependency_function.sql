-- What a client span calls, named from the attributes the instrumentations set, most specific
-- first: the service the caller named (peer.service), a database (system + namespace), an RPC or
-- AWS service and method, a messaging destination, else the HTTP host (+ port when not 80/443).
-- Low-cardinality by design: never a path, statement or id; a temporary messaging destination is
-- named 'temporary'; cut to 200 characters (span data is attacker-controlled). '' when nothing names it.
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
            if(attrs['server.port'] NOT IN ('', '80', '443'), concat(':', attrs['server.port']), '')),
    attrs['url.full'] != '' OR attrs['http.url'] != '',
        concat(domain(if(attrs['url.full'] != '', attrs['url.full'], attrs['http.url'])),
            if(port(if(attrs['url.full'] != '', attrs['url.full'], attrs['http.url'])) NOT IN (0, 80, 443),
               concat(':', toString(port(if(attrs['url.full'] != '', attrs['url.full'], attrs['http.url'])))), '')),
    attrs['net.peer.name'] != '', attrs['net.peer.name'],
    ''), 1, 200);
