const G=425,M=[425],O={3114:((k,v,d)=>{d.d(v,{Z:()=>n});function n(r,u){if(r===u)return!0;if(typeof r!="object"||typeof u!="object"||r===null||u===null)return typeof r=="number"&&typeof u=="number"&&Number.isNaN(r)&&Number.isNaN(u);const b=Array.isArray(r);if(b!==Array.isArray(u))return!1;if(b){const s=r,h=u;if(s.length!==h.length)return!1;for(let a=0;a<s.length;a++)if(!n(s[a],h[a]))return!1;return!0}const f=r,i=u;let p=0;for(const s in f)if(Object.hasOwn(f,s)){if(!Object.hasOwn(i,s)||!n(f[s],i[s]))return!1;p++}for(const s in i)Object.hasOwn(i,s)&&p--;return p===0}}),5757:((k,v,d)=>{d.d(v,{E:()=>b,Z:()=>u});var n=d(8952),r=d(9110);async function u(f,i){const p=await f.resolve("v1","ConfigMap");if(!p)return;const s=await f.list(p,i.namespace,{labelSelector:`${n.gC.InventoryId}=${i.id}`});if(s.items.length===0)return;if(s.items.length>1)throw new Error(`found ${s.items.length} inventory objects with inventory id ${i.id}`);const h={...s.items[0],apiVersion:"v1",kind:"ConfigMap"},a=h.data??{};return{kind:"ConfigMap",ids:Object.keys(a).map(r.jz),resourceVersion:h.metadata.resourceVersion,object:h}}async function b(f,i){await f.delete({apiVersion:"v1",group:"",kind:"ConfigMap",namespace:i.metadata.namespace??"",name:i.metadata.name},{uid:i.metadata.uid})}}),7719:((k,v,d)=>{d.d(v,{h:()=>i});var n=d(8952),r=d(4662),u=d(915);const b=`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: resourcegroups.kpt.dev
spec:
  conversion:
    strategy: None
  group: kpt.dev
  names:
    kind: ResourceGroup
    listKind: ResourceGroupList
    plural: resourcegroups
    singular: resourcegroup
  scope: Namespaced
  versions:
  - name: v1alpha1
    schema:
      openAPIV3Schema:
        description: ResourceGroup is the Schema for the resourcegroups API
        properties:
          apiVersion:
            description: 'APIVersion defines the versioned schema of this representation
              of an object. Servers should convert recognized schemas to the latest
              internal value, and may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources'
            type: string
          kind:
            description: 'Kind is a string value representing the REST resource this
              object represents. Servers may infer this from the endpoint the client
              submits requests to. Cannot be updated. In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'
            type: string
          metadata:
            type: object
          spec:
            description: ResourceGroupSpec defines the desired state of ResourceGroup
            properties:
              descriptor:
                description: Descriptor regroups the information and metadata about
                  a resource group
                properties:
                  description:
                    description: Description is a brief description of a group of
                      resources
                    type: string
                  links:
                    description: Links are a list of descriptive URLs intended to
                      be used to surface additional information
                    items:
                      properties:
                        description:
                          description: Description explains the purpose of the link
                          type: string
                        url:
                          description: Url is the URL of the link
                          type: string
                      required:
                      - description
                      - url
                      type: object
                    type: array
                  revision:
                    description: Revision is an optional revision for a group of resources
                    type: string
                  type:
                    description: Type can contain prefix, such as Application/WordPress
                      or Service/Spanner
                    type: string
                type: object
              resources:
                description: Resources contains a list of resources that form the
                  resource group
                items:
                  description: ObjMetadata organizes and stores the identifying information
                    for an object. This struct (as a string) is stored in a grouping
                    object to keep track of sets of applied objects.
                  properties:
                    group:
                      type: string
                    kind:
                      type: string
                    name:
                      type: string
                    namespace:
                      type: string
                  required:
                  - group
                  - kind
                  - name
                  - namespace
                  type: object
                type: array
            type: object
          status:
            description: ResourceGroupStatus defines the observed state of ResourceGroup
            properties:
              conditions:
                description: Conditions lists the conditions of the current status
                  for the group
                items:
                  properties:
                    lastTransitionTime:
                      description: last time the condition transit from one status
                        to another
                      format: date-time
                      type: string
                    message:
                      description: human-readable message indicating details about
                        last transition
                      type: string
                    reason:
                      description: one-word CamelCase reason for the condition's last
                        transition
                      type: string
                    status:
                      description: Status of the condition
                      type: string
                    type:
                      description: Type of the condition
                      type: string
                  required:
                  - status
                  - type
                  type: object
                type: array
              observedGeneration:
                description: ObservedGeneration is the most recent generation observed.
                  It corresponds to the Object's generation, which is updated on mutation
                  by the API Server. Everytime the controller does a successful reconcile,
                  it sets ObservedGeneration to match ResourceGroup.metadata.generation.
                format: int64
                type: integer
              resourceStatuses:
                description: ResourceStatuses lists the status for each resource in
                  the group
                items:
                  description: ResourceStatus contains the status of a given resource
                    uniquely identified by its group, kind, name and namespace.
                  properties:
                    actuation:
                      description: actuation indicates whether actuation has been
                        performed yet and how it went.
                      type: string
                    conditions:
                      items:
                        properties:
                          lastTransitionTime:
                            description: last time the condition transit from one
                              status to another
                            format: date-time
                            type: string
                          message:
                            description: human-readable message indicating details
                              about last transition
                            type: string
                          reason:
                            description: one-word CamelCase reason for the condition's
                              last transition
                            type: string
                          status:
                            description: Status of the condition
                            type: string
                          type:
                            description: Type of the condition
                            type: string
                        required:
                        - status
                        - type
                        type: object
                      type: array
                    group:
                      type: string
                    kind:
                      type: string
                    name:
                      type: string
                    namespace:
                      type: string
                    reconcile:
                      description: reconcile indicates whether reconciliation has
                        been performed yet and how it went.
                      type: string
                    sourceHash:
                      type: string
                    status:
                      description: Status describes the status of a resource
                      type: string
                    strategy:
                      description: strategy indicates the method of actuation (apply
                        or delete) used or planned to be used.
                      type: string
                  required:
                  - group
                  - kind
                  - name
                  - namespace
                  - status
                  type: object
                type: array
            required:
            - observedGeneration
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
status:
  acceptedNames:
    kind: ""
    plural: ""
  conditions: []
  storedVersions: []
`;async function f(){return(await(0,u.yv)()).parse(b)}async function i(p,s){if(await p.resolve(n.u_,n.gM))return"present";if(!s.install)throw new Error("type ResourceGroup not found: the ResourceGroup CRD (resourcegroups.kpt.dev) is not installed; run `kpt-live install-resource-group` (or `kpt live install-resource-group`) with cluster-admin rights");try{await p.create(await f())}catch(a){if(a instanceof r.W3&&a.forbidden)throw new Error(`the ResourceGroup CRD (resourcegroups.kpt.dev) is not installed, and these credentials may not create customresourcedefinitions (cluster-wide). Ask a cluster admin to run \`kpt-live install-resource-group\` (or \`kpt live install-resource-group\`) once. Server said: ${a.message}`);if(!(a instanceof r.W3&&a.code===409))throw a}const h=Date.now()+(s.timeoutMs??3e4);for(;Date.now()<h;){if(((await p.get({apiVersion:"apiextensions.k8s.io/v1",group:"apiextensions.k8s.io",kind:"CustomResourceDefinition",namespace:"",name:"resourcegroups.kpt.dev"}))?.status?.conditions??[]).some(e=>e.type==="Established"&&e.status==="True")&&(p.resetDiscovery(),await p.resolve(n.u_,n.gM)))return"installed";await new Promise(e=>setTimeout(e,200))}throw new Error("the ResourceGroup CRD was created but did not become Established in time")}}),4839:((k,v,d)=>{d.d(v,{$o:()=>h,HT:()=>j,eq:()=>f});var n=d(8952),r=d(3114),u=d(9110);const b=e=>({apiVersion:n.u_,group:"kpt.dev",kind:n.gM,namespace:e.namespace,name:e.name});async function f(e,c){const t=await e.get(b(c));if(!t)return;const o=t.metadata.labels?.[n.gC.InventoryId];if(o!==c.id)throw new Error(`inventory-id of inventory object in cluster doesn't match provided id "${c.id}" (ResourceGroup ${c.namespace}/${c.name} has "${o??""}"): another package owns this inventory name; give this package its own inventory (kpt-live init --force)`);return{kind:"ResourceGroup",ids:i(t),resourceVersion:t.metadata.resourceVersion,object:t}}function i(e){return(e.spec?.resources??[]).map(t=>({group:(t.group??"").trim(),kind:(t.kind??"").trim(),namespace:t.namespace??"",name:t.name??""}))}function p(e,c,t){const o=[...c].sort((y,w)=>(0,u.q3)(y.id,w.id)),m=Object.fromEntries(Object.entries(e.annotations??{}).filter(([y])=>!y.startsWith("config.kubernetes.io/")&&!y.startsWith("internal.config.kubernetes.io/"))),g={apiVersion:n.u_,kind:n.gM,metadata:{...t?.metadata??{},name:e.name,namespace:e.namespace,labels:{...t?.metadata.labels??{},...e.labels??{},[n.gC.InventoryId]:e.id}}};(Object.keys(m).length>0||t?.metadata.annotations)&&(g.metadata.annotations={...t?.metadata.annotations??{},...m}),delete g.metadata.managedFields;const l={...t?.spec??{}};return o.length>0?l.resources=o.map(y=>({group:y.id.group,kind:y.id.kind,name:y.id.name,namespace:y.id.namespace})):delete l.resources,g.spec=l,g}function s(e,c){const t=[...e].sort((m,g)=>(0,u.q3)(m.id,g.id)),o={observedGeneration:c??0};return t.length>0&&(o.resourceStatuses=t.map(m=>({group:m.id.group,kind:m.id.kind,namespace:m.id.namespace,name:m.id.name,status:"Unknown",strategy:m.strategy,actuation:m.actuation,reconcile:m.reconcile}))),o}async function h(e,c,t,o,m={}){const g=p(c,t,o);let l;if(o?a(g,o)?l=o:(g.metadata.resourceVersion=o.metadata.resourceVersion,l=await e.replace(g)):(delete g.metadata.resourceVersion,l=await e.create(g)),m.status===!1)return l;const y=s(t,l.metadata.generation);if((0,r.Z)(l.status,y))return l;const{name:w,namespace:_,resourceVersion:C,uid:R}=l.metadata,E={name:w,namespace:_,resourceVersion:C,...R?{uid:R}:{}};return e.replaceStatus({apiVersion:l.apiVersion,kind:l.kind,metadata:E,status:y})}function a(e,c){const t=o=>({labels:o.metadata.labels,annotations:o.metadata.annotations,spec:o.spec});return(0,r.Z)(t(e),t(c))}async function j(e,c,t){await e.delete(b(c),{uid:t})}})};export{G as id,M as ids,O as modules};
