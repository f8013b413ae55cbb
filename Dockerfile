# ddrank image: the project installed from this repository with pip, for the Prefect server,
# the worker that runs the deployments and the Dask scheduler/workers (docker-compose.yml).
# Unbuilt on the development machines (no Docker engine there); see docs/operations.md.
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

# /opt/ddrank (DDRANK_CODE_DIR below) is the working directory of every deployment run
# (prefect.yaml pull step).
WORKDIR /opt/ddrank
COPY pyproject.toml README.md ./
COPY ddrank ./ddrank
COPY flows ./flows
COPY tasks ./tasks
COPY stages ./stages
COPY store ./store
COPY publish ./publish
COPY cli ./cli
COPY sql ./sql
COPY data ./data
COPY models ./models
COPY prefect.yaml ./
# Editable: the flows find sql/ and the bundled data/ next to the code, as in a clone.
RUN pip install -e . \
    && python -c "import ddrank, store, stages, publish, flows.inbox, flows.pipeline, endplay.dds, prefect_dask"

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
