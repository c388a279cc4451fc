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

{{/*
Replicas would each keep their own tasks, approvals, rate counters and sessions, and this
version has no shared store for them: refuse a replica count or an autoscaler that would split them.
*/}}
{{- define "switchboard.checkReplicas" -}}
{{- if or (gt (int .Values.replicaCount) 1) .Values.autoscaling.enabled -}}
{{- fail "replicaCount > 1 and autoscaling need state shared between replicas, which this version does not have yet: keep one replica (docs/deploy.md)" -}}
{{- end -}}
{{- end -}}
