# ddrank image: the project's wheel installed with pip at the locked versions, for the Prefect
# server, the worker that runs the deployments and the Dask scheduler/workers (docker-compose.yml).
# Unbuilt on the development machines (no Docker engine there); see docs/operations.md.

# Stage 1: build the wheel (the code, the SQL, the bundled sample and the shipped model).
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY pyproject.toml README.md ./
COPY ddrank ./ddrank
COPY flows ./flows
COPY tasks ./tasks
COPY stages ./stages
COPY store ./store
COPY publish ./publish
COPY cli ./cli
COPY sql ./sql
RUN pip wheel --no-deps --wheel-dir /wheels .

# Stage 2: the image, with the wheel and nothing of the source tree but the deployments' files.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DO_NOT_TRACK=1 \
    PREFECT_SERVER_ANALYTICS_ENABLED=false

# DDS (endplay) and LightGBM wheels need the C++ runtime and OpenMP; Bridgemate .bws files are
# read through the MDBTools ODBC driver (ops/install-bws-driver.sh).
RUN apt-get update \
    && apt-get install -y --no-install-recommends libgomp1 libstdc++6 odbc-mdbtools unixodbc \
    && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 ddrank

# The wheel with the extras the stack uses (the Dask runner, the estimator), every dependency at
# the version of requirements.lock.
COPY requirements.lock /tmp/requirements.lock
COPY --from=wheel /wheels /tmp/wheels
RUN pip install -c /tmp/requirements.lock "$(ls /tmp/wheels/ddrank-*.whl)[dask,estimator]" \
    && rm -rf /tmp/wheels \
    && python -c "import ddrank, store, stages, publish, flows.inbox, flows.pipeline, endplay.dds, prefect_dask" \
    && python -c "from ddrank.data import bundled; assert bundled('sample').is_dir()"

# /opt/ddrank (DDRANK_CODE_DIR below) is the working directory of every deployment run
# (prefect.yaml pull step): it holds prefect.yaml and the flow files its entrypoints name; they
# import everything else from the installed wheel.
WORKDIR /opt/ddrank
COPY prefect.yaml ./
COPY flows ./flows

RUN mkdir -p /data/inbox /data/out /data/prefect-results \
    && chown -R ddrank:ddrank /data /opt/ddrank
USER ddrank

ENV DDRANK_CODE_DIR=/opt/ddrank \
    DDRANK_DB=/data/ddrank.duckdb \
    DDRANK_INBOX=/data/inbox \
    DDRANK_OUT=/data/out \
    PREFECT_LOCAL_STORAGE_PATH=/data/prefect-results

VOLUME ["/data"]
CMD ["ddrank", "--help"]
