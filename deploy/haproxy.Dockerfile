# HAProxy for `docker compose --profile cluster` (docker-compose.yml): Debian's package on the
# same base image as the server. The configuration is deploy/haproxy.cfg, mounted at
# /usr/local/etc/haproxy/haproxy.cfg by docker-compose.yml, with the addresses in the
# environment (PANDEMONIUM_FRONT, PANDEMONIUM_NODE1..3: see that file).
FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends haproxy \
    && rm -rf /var/lib/apt/lists/*
# The package's own user: nothing here needs root (the port is above 1024).
USER haproxy
EXPOSE 8080
# -W: a master process that reloads the workers on SIGUSR2 (`docker compose kill -s USR2
# haproxy` after an edit of the config); -db: in the foreground, logging to standard output.
CMD ["haproxy", "-W", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]
