# Himiko's container image (docs/operations.md, "Container").
#
#   docker build -t himiko .
#   docker run -d --name himiko --init --env-file .env -v himiko-data:/data himiko
#   docker run --rm --init --network host himiko --demo     # the demo's web pages, no Discord
#   docker compose up -d --build                            # with PostgreSQL (compose.yaml)
#
# PYTHON_IMAGE names the base: any Debian-like image with Python 3.11+ (its venv module) and
# useradd. The tests build on a base made from Debian's packages (scripts/lib/test-docker.sh).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# -- build: the project as a wheel, installed with its dependencies into /opt/himiko -------------
FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_ROOT_USER_ACTION=ignore \
    PYTHONDONTWRITEBYTECODE=1
# /opt/build builds the wheel; /opt/himiko is what the image keeps.
RUN python3 -m venv /opt/build \
    && /opt/build/bin/pip install --quiet "setuptools>=68" \
    && python3 -m venv /opt/himiko
# The dependencies first, from pyproject.toml within constraints.txt: this layer is reused until
# one of these two files changes, whatever the sources do.
COPY pyproject.toml constraints.txt /src/
RUN /opt/build/bin/python -c "import tomllib; \
print('\n'.join(tomllib.load(open('/src/pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /src/requirements.txt \
    && /opt/himiko/bin/pip install --quiet -c /src/constraints.txt -r /src/requirements.txt
COPY README.md /src/
COPY engine /src/engine
COPY render /src/render
COPY bot /src/bot
COPY migrations /src/migrations
# The wheel carries the fonts, migrations, engine data and texts (pyproject's package data);
# installing it checks that its dependencies are already there (no download at this step).
RUN /opt/build/bin/pip wheel --quiet --no-deps --no-build-isolation -w /wheels /src \
    && /opt/himiko/bin/pip install --quiet --no-index -c /src/constraints.txt /wheels/himiko-*.whl \
    && /opt/himiko/bin/pip check

# -- the image: the installed venv, no sources, a user without rights elsewhere ------------------
FROM ${PYTHON_IMAGE}
# A fixed uid, so that a volume's files keep their owner whatever the base or rebuild.
RUN useradd --uid 10001 --user-group --home-dir /data --no-create-home --shell /usr/sbin/nologin \
        himiko \
    && mkdir /data \
    && chown himiko:himiko /data
COPY --from=build /opt/himiko /opt/himiko
ENV PATH=/opt/himiko/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    LANG=C.UTF-8
# The SQLite database (DATABASE_PATH's default, himiko.sqlite3, is relative to the working
# directory), the demo's file and backups live here.
VOLUME /data
WORKDIR /data
USER himiko
# WEB_PORT's usual value (docs/web.md); WEB_HOST must be 0.0.0.0 for a published port.
EXPOSE 8080
# The bot stops cleanly on SIGTERM as on SIGINT (docker stop): the tick under way finishes.
ENTRYPOINT ["python", "-m", "bot"]
