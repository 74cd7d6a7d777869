# The Parlour game server. Build and run with `docker compose up -d --build`
# (docker-compose.yml), or by hand:
#   docker build -t parlour:latest .
#   docker run -d -p 8765:8765 -v parlour-data:/data parlour:latest

# Build stage: install the project and its dependencies into a virtual environment.
FROM python:3.11-slim AS build

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

RUN python -m venv /opt/parlour

WORKDIR /src
# The whole build context, filtered by .dockerignore: pyproject.toml, README.md and whichever
# package folders exist (parlour, rules, protocol, server, bots, client).
COPY . .
RUN /opt/parlour/bin/pip install .

# Run stage: the same base image, the virtual environment, no sources and no build tools.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PATH=/opt/parlour/bin:$PATH

# An unprivileged user that owns /data. The directory is made before VOLUME so that a new
# named volume starts out with this owner.
RUN groupadd --system --gid 10001 parlour \
    && useradd --system --uid 10001 --gid parlour --create-home --home-dir /home/parlour \
        --shell /usr/sbin/nologin parlour \
    && mkdir /data \
    && chown parlour:parlour /data

COPY --from=build /opt/parlour /opt/parlour

USER 10001:10001
WORKDIR /home/parlour
VOLUME /data
EXPOSE 8765

# The server shuts down gracefully on SIGTERM.
STOPSIGNAL SIGTERM

# No curl in the slim image: Python's urllib asks for /healthz. An HTTP error, a refused
# connection or a timeout raises, and the check exits with status 1.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; r = urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=4); sys.exit(0 if r.status == 200 else 1)"]

ENTRYPOINT ["parlour"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8765", "--data-dir", "/data"]
