# The faithscreen worker and API image (one image, the role is the command: worker | api).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY bin ./bin
COPY cli ./cli
COPY platform ./platform
COPY api ./api
COPY activities ./activities
COPY workflows ./workflows
COPY warehouse ./warehouse
COPY reads ./reads
COPY engine ./engine
COPY common ./common
COPY sources ./sources
COPY access ./access
COPY attest ./attest
COPY forensic ./forensic
COPY service-state ./service-state
COPY serving ./serving
COPY webhooks ./webhooks
# The framework pages: the MCP server offers them as resources.
COPY docs/frameworks ./docs/frameworks
COPY tsconfig.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
ENTRYPOINT ["node", "bin/faithscreen.js"]
CMD ["api"]
