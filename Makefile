# The two commands of the README's quick start. Both install what is missing first (scripts/setup.sh).
.PHONY: start test setup lint build

start:
	@scripts/setup.sh --for start
	@node apps/cli/bin/tracemill.js serve $(if $(PORT),--port $(PORT),)

test:
	@scripts/setup.sh --for test
	npm test

setup:
	@scripts/setup.sh --for test

lint:
	npm run lint

build:
	npm run build
