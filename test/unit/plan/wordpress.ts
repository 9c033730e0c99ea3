import type { ObjectId } from '../../../src/common/object-id.js';
import { objects } from './objects.js';

// The shared wordpress-with-dependencies package, namespaces defaulted to `default` as the loader does.
export const WORDPRESS = objects(`
apiVersion: v1
kind: Service
metadata:
  name: wordpress
  namespace: default
  annotations:
    config.kubernetes.io/depends-on: apps/namespaces/default/StatefulSet/wordpress-mysql
spec: {type: LoadBalancer}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: wordpress
  namespace: default
  annotations:
    config.kubernetes.io/depends-on: apps/namespaces/default/StatefulSet/wordpress-mysql
---
apiVersion: v1
kind: Service
metadata: {name: wordpress-mysql, namespace: default}
spec: {clusterIP: None}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: wordpress-mysql, namespace: default}
`);

export const id = (group: string, kind: string, namespace: string, name: string): ObjectId => ({
  group,
  kind,
  namespace,
  name,
});
