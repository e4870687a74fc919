-- Argo CD health check for docsnap.dev/StaticExport (argocd-cm:
-- resource.customizations.health.docsnap.dev_StaticExport). Healthy when Ready is True;
-- Progressing while the operator has not seen the latest spec, or an export is Pending,
-- Exporting or Bundling; Degraded when the export Failed or Ready is False with a reason;
-- Suspended for spec.suspend. The message is the Ready condition's.
local hs = {}

local function condition(kind)
  if obj.status == nil or obj.status.conditions == nil then
    return nil
  end
  for _, c in ipairs(obj.status.conditions) do
    if c.type == kind then
      return c
    end
  end
  return nil
end

if obj.spec ~= nil and obj.spec.suspend == true then
  hs.status = "Suspended"
  hs.message = "Suspended: no exports and no link refreshes; the targets keep what they hold"
  return hs
end

local status = obj.status
if status == nil or status.observedGeneration == nil
    or (obj.metadata.generation ~= nil and status.observedGeneration < obj.metadata.generation) then
  hs.status = "Progressing"
  hs.message = "Waiting for the operator to observe the latest spec"
  return hs
end

local ready = condition("Ready")
local phase = status.phase

if phase == "Failed" then
  hs.status = "Degraded"
  if ready ~= nil and ready.message ~= nil and ready.message ~= "" then
    hs.message = ready.message
  else
    hs.message = status.error or "The export failed"
  end
  return hs
end

if ready ~= nil and ready.status == "True" then
  hs.status = "Healthy"
  hs.message = ready.message
  return hs
end

if phase == "Pending" or phase == "Exporting" or phase == "Bundling" then
  hs.status = "Progressing"
  if ready ~= nil and ready.message ~= nil and ready.message ~= "" then
    hs.message = ready.message
  elseif status.progress ~= nil then
    hs.message = phase .. " (" .. tostring(status.progress) .. "%)"
  else
    hs.message = phase
  end
  return hs
end

if ready ~= nil and ready.status == "False" and ready.reason ~= nil and ready.reason ~= "" then
  hs.status = "Degraded"
  hs.message = ready.message
  return hs
end

hs.status = "Progressing"
hs.message = "Waiting for the first export"
return hs
