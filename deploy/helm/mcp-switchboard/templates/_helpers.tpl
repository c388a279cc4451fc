{{/* Names and labels shared by the chart's objects. */}}
{{- define "switchboard.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "switchboard.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "switchboard.selectorLabels" -}}
app.kubernetes.io/name: {{ include "switchboard.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "switchboard.labels" -}}
{{ include "switchboard.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "switchboard.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "switchboard.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The Secret holding the main token: the user's, or the chart's own. */}}
{{- define "switchboard.tokenSecret" -}}
{{- default (printf "%s-token" (include "switchboard.fullname" .)) .Values.mainToken.existingSecret -}}
{{- end -}}

{{/* Whether a Redis is named, through which replicas share their state. */}}
{{- define "switchboard.redis" -}}
{{- if or .Values.redis.url .Values.redis.existingSecret -}}true{{- end -}}
{{- end -}}

{{/* The Secret holding the Redis URL: the user's, or the chart's own (from redis.url). */}}
{{- define "switchboard.redisSecret" -}}
{{- default (printf "%s-redis" (include "switchboard.fullname" .)) .Values.redis.existingSecret -}}
{{- end -}}

{{/*
Replicas without a shared Redis would each keep their own tasks, approvals, rate counters and
per-person tokens: refuse a replica count or an autoscaler that would split them. And a pod must be
given the time to drain: preStop, then proxy.drainMs, then 5 s to close sessions and reap servers.
*/}}
{{- define "switchboard.checkReplicas" -}}
{{- if and (or (gt (int .Values.replicaCount) 1) .Values.autoscaling.enabled) (not (include "switchboard.redis" .)) -}}
{{- fail "replicaCount > 1 and autoscaling need the state replicas share: set redis.url or redis.existingSecret (docs/deploy.md)" -}}
{{- end -}}
{{- $drainMs := 10000 -}}
{{- with .Values.config.proxy }}{{ with .drainMs }}{{ $drainMs = . }}{{ end }}{{ end -}}
{{- $needed := add (int .Values.preStopSeconds) (div (add (int $drainMs) 999) 1000) 5 -}}
{{- if lt (int .Values.terminationGracePeriodSeconds) (int $needed) -}}
{{- fail (printf "terminationGracePeriodSeconds (%d) must be at least preStopSeconds + config.proxy.drainMs + 5 s = %d" (int .Values.terminationGracePeriodSeconds) (int $needed)) -}}
{{- end -}}
{{- end -}}
